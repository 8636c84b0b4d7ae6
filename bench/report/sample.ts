/**
 * What the harness records: one measured run of one contender on one workload,
 * and the whole report RESULTS.md is rendered from. Types only.
 */
import type { ContenderId } from '../peers/contenders.js'
import type { Sizing } from '../load/workloads.js'

/** One measured run. */
export interface Sample {
  readonly workload: string
  readonly contender: ContenderId
  readonly round: number
  /** the headline number, in the workload's unit. */
  readonly value: number
  /** server CPU per operation, µs (per request, message, broadcast or connection). */
  readonly serverCpuUs: number
  /** load generator CPU per operation, µs; undefined when not known. */
  readonly clientCpuUs?: number
  /** which load generator measured it, when a workload can use more than one ('wsload.c', 'ws-client.ts'). */
  readonly loadGenerator?: string
  /** further numbers (p99 latency, …) by name. */
  readonly extra?: Readonly<Record<string, number>>
  /** average CPU of other processes during the run, in cores. */
  readonly otherCores: number
  /** true when the machine was busy before the run or others used CPU during it. */
  readonly disturbed: boolean
}

/** A run that produced no number. */
export interface Failure {
  readonly workload: string
  readonly contender: ContenderId
  readonly round: number
  readonly reason: string
}

/** A micro-benchmark module's outcome (`bench/*.ts` exporting `run()`). */
export interface MicroOutcome {
  readonly file: string
  /** what run() returned, or undefined when it was skipped or failed. */
  readonly result?: unknown
  readonly note?: string
}

/** Everything RESULTS.md and ratios.svg are made from. */
export interface Report {
  readonly startedAt: string
  readonly quick: boolean
  readonly sizing: Sizing
  readonly machine: string
  readonly command: string
  readonly elapsedS: number
  readonly unavailable: Readonly<Partial<Record<ContenderId, string>>>
  readonly samples: readonly Sample[]
  readonly failures: readonly Failure[]
  readonly micro: readonly MicroOutcome[]
}

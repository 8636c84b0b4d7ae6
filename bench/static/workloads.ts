/**
 * What bench/static-files.ts measures (issue 30, "Measured"): the workloads, which contenders
 * run each, and the targets as data (twinport's requests/s over a peer's, in the same round).
 * Pure; imports nothing.
 */

/** A workload: one URL path hammered by `wrk -t1 -c50` over keep-alive. */
export interface StaticWorkload {
  readonly id: string
  readonly what: string
  /** The URL path. */
  readonly path: string
  /** Extra request fields (wrk `-H`). */
  readonly headers: Readonly<Record<string, string>>
  /** Random 64 KiB ranges (bench/static/range.lua) instead of one fixed request. */
  readonly ranges: boolean
  /** Which kind of server answers it. */
  readonly kind: 'files' | 'compression'
}

/** The files the bench writes into its temporary root. */
export const SMALL = { name: '1k.js', size: 1024 } as const
export const LARGE = { name: '1m.js', size: 1024 * 1024 } as const
/** Sparse: nothing is written, the kernel answers its holes with zeros from memory. */
export const HUGE = { name: '1g.bin', size: 2 ** 30 } as const
export const RANGE_SIZE = 64 * 1024

export const WORKLOADS: readonly StaticWorkload[] = [
  { id: 'file-1k', what: `GET of a 1 KiB file (${SMALL.name})`, path: `/static/${SMALL.name}`, headers: {}, ranges: false, kind: 'files' },
  { id: 'file-1m', what: `GET of a 1 MiB file (${LARGE.name})`, path: `/static/${LARGE.name}`, headers: {}, ranges: false, kind: 'files' },
  { id: 'range-64k', what: 'one 64 KiB Range at a random aligned offset of a 1 GiB sparse file', path: `/static/${HUGE.name}`, headers: {}, ranges: true, kind: 'files' },
  { id: 'gzip-100k', what: 'a 100 KiB JSON answer, Accept-Encoding: gzip (level 6)', path: '/json', headers: { 'Accept-Encoding': 'gzip' }, ranges: false, kind: 'compression' },
  { id: 'br-100k', what: 'a 100 KiB JSON answer, Accept-Encoding: br (quality 4)', path: '/json', headers: { 'Accept-Encoding': 'br' }, ranges: false, kind: 'compression' },
]

/** A target: `subject`'s median requests/s over `peer`'s at least `atLeast` (undefined: reported only). */
export interface StaticTarget {
  readonly workload: string
  readonly subject: string
  readonly peer: string
  readonly atLeast: number | undefined
}

const fileTargets = (workload: string, nginx: number | undefined): StaticTarget[] => [
  { workload, subject: 'twinport', peer: 'fastify-static', atLeast: 1.5 },
  { workload, subject: 'twinport', peer: 'express', atLeast: 2 },
  { workload, subject: 'twinport-bun', peer: 'bun-file', atLeast: 1 },
  { workload, subject: 'twinport', peer: 'nginx', atLeast: nginx },
  { workload, subject: 'twinport-bun', peer: 'nginx', atLeast: undefined },
  { workload, subject: 'twinport-deno', peer: 'nginx', atLeast: undefined },
]

export const TARGETS: readonly StaticTarget[] = [
  ...fileTargets('file-1k', 0.6),
  ...fileTargets('file-1m', undefined),
  ...fileTargets('range-64k', undefined),
  { workload: 'gzip-100k', subject: 'twinport', peer: 'fastify-compress', atLeast: 1.2 },
  { workload: 'br-100k', subject: 'twinport', peer: 'fastify-compress', atLeast: 1.2 },
]

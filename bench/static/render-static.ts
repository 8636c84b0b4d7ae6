/**
 * `renderStatic`: bench/static-files.ts's runs as a Markdown section: per workload, each
 * contender's median requests/s over the rounds (min–max), MiB/s of body, the server's CPU per
 * request, and how busy the rest of the machine was; then the targets, judged on the ratio of
 * medians, with the same ratio of CPU per request beside it (steadier on a shared machine).
 * Pure; imports only the bench's own statistics.
 */
import { summarize } from '../report/stats.js'
import type { StaticTarget, StaticWorkload } from './workloads.js'

/** One measured window. */
export interface StaticRun {
  readonly round: number
  readonly workload: string
  readonly contender: string
  readonly requestsPerSecond: number
  /** Bytes of body per answer as the probe saw them (compressed size for the compression workloads). */
  readonly bodyBytes: number
  /** Socket errors plus answers that were not 2xx/3xx. */
  readonly errors: number
  /** The server's CPU (user + system) per request, µs; NaN when unknown. */
  readonly serverUsPerRequest: number
  /** wrk's CPU per request, µs. */
  readonly clientUsPerRequest: number
  /** Cores the rest of the machine kept busy during the window (not the server, wrk or the bench). */
  readonly otherCores: number
}

/** A contender that could not be measured, and why. */
export interface StaticFailure {
  readonly contender: string
  readonly workload: string
  readonly reason: string
}

const f0 = (n: number): string => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–')
const f1 = (n: number): string => (Number.isFinite(n) ? n.toFixed(1) : '–')
const f2 = (n: number): string => (Number.isFinite(n) ? n.toFixed(2) : '–')

interface Row {
  readonly contender: string
  readonly rps: ReturnType<typeof summarize>
  readonly mibs: number
  readonly cpu: number
  readonly client: number
  readonly other: number
  readonly errors: number
}

const rowsOf = (runs: readonly StaticRun[], workload: string): Row[] => {
  const ids = [...new Set(runs.filter((r) => r.workload === workload).map((r) => r.contender))]
  return ids.map((contender) => {
    const mine = runs.filter((r) => r.workload === workload && r.contender === contender)
    const rps = summarize(mine.map((r) => r.requestsPerSecond))
    return {
      contender,
      rps,
      mibs: (rps.median * (mine[0]?.bodyBytes ?? 0)) / 2 ** 20,
      cpu: summarize(mine.map((r) => r.serverUsPerRequest).filter(Number.isFinite)).median,
      client: summarize(mine.map((r) => r.clientUsPerRequest)).median,
      other: summarize(mine.map((r) => r.otherCores)).median,
      errors: mine.reduce((sum, r) => sum + r.errors, 0),
    }
  })
}

/**
 * The section, headed by `title` and the command that made it.
 *
 * @example renderStatic('Static files', 'npx tsx bench/static-files.ts', WORKLOADS, TARGETS, runs, [])
 */
export const renderStatic = (
  title: string,
  command: string,
  workloads: readonly StaticWorkload[],
  targets: readonly StaticTarget[],
  runs: readonly StaticRun[],
  failures: readonly StaticFailure[],
): string => {
  const out: string[] = [`## ${title}`, '', `\`${command}\``, '']
  const byWorkload = new Map<string, Row[]>()
  for (const w of workloads) {
    const rows = rowsOf(runs, w.id)
    if (rows.length === 0) continue
    byWorkload.set(w.id, rows)
    out.push(`### \`${w.id}\`: ${w.what}`, '')
    out.push('| contender | requests/s (median) | min–max | rounds | MiB/s of body | server CPU µs/request | wrk CPU µs/request | other load (cores) | errors |')
    out.push('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    for (const r of rows) {
      out.push(`| ${r.contender} | ${f0(r.rps.median)} | ${f0(r.rps.min)}–${f0(r.rps.max)} | ${r.rps.n} | ${f1(r.mibs)} | ${f1(r.cpu)} | ${f1(r.client)} | ${f2(r.other)} | ${r.errors} |`)
    }
    out.push('')
  }
  const judged = targets.filter((t) => byWorkload.get(t.workload)?.some((r) => r.contender === t.subject) === true)
  if (judged.length > 0) {
    out.push('### Ratios and targets', '')
    out.push('| workload | ratio | requests/s ratio (medians) | CPU per request, peer ÷ subject | target | verdict |')
    out.push('|---|---|---:|---:|---:|---|')
    for (const t of judged) {
      const rows = byWorkload.get(t.workload) ?? []
      const subject = rows.find((r) => r.contender === t.subject)
      const peer = rows.find((r) => r.contender === t.peer)
      const ratio = subject !== undefined && peer !== undefined && peer.rps.median > 0 ? subject.rps.median / peer.rps.median : Number.NaN
      const cpu = subject !== undefined && peer !== undefined ? peer.cpu / subject.cpu : Number.NaN
      const verdict = t.atLeast === undefined ? 'reported' : !Number.isFinite(ratio) ? 'not measured' : ratio >= t.atLeast ? 'met' : 'not met'
      out.push(`| ${t.workload} | ${t.subject} ÷ ${t.peer} | ${f2(ratio)} | ${f2(cpu)} | ${t.atLeast === undefined ? '–' : `≥ ${t.atLeast}`} | ${verdict} |`)
    }
    out.push('')
  }
  if (failures.length > 0) {
    out.push('Not measured:', '')
    for (const f of failures) out.push(`- ${f.contender} (${f.workload}): ${f.reason}`)
    out.push('')
  }
  return out.join('\n')
}

/**
 * The streaming bench's Markdown section (`bench/streaming.ts`): per workload, each
 * contender's median over the rounds (min–max beside it), its ratio to the references, its
 * server RSS growth (median and worst run) and server CPU (the download's cold first run
 * apart; the upload path's CPU without the sink in `parse1g`), then the issue 22 targets judged
 * (a run that failed counts as no figure, and a contender with none fails its targets), then
 * every failure with its reason. Pure.
 */
import { summarize } from '../report/stats.js'

/** The three workloads. */
export type StreamWorkload = 'download' | 'upload64' | 'upload1g' | 'parse1g'

/** One measured run. */
export interface StreamRun {
  readonly workload: StreamWorkload
  readonly contender: string
  readonly round: number
  /** The run's answer was complete and right (bytes, hashes, fields). */
  readonly ok: boolean
  readonly error?: string
  readonly ms: number
  /** Payload bytes moved (body bytes downloaded, file bytes uploaded). */
  readonly bytes: number
  readonly rssGrowth: number
  readonly serverCpuMs: number
  /** The machine was quiet before the run (`load/quiet.ts`). */
  readonly quiet: boolean
  /** The server's RSS held still after the warm-up and a full GC (`settle-rss.ts`). */
  readonly settled: boolean
  /** Downloads: the first (cold) full-size download on the same server, before the warm-up ended. */
  readonly coldMs?: number
}

/** How the section was made, for its first lines. */
export interface StreamContext {
  readonly command: string
  readonly date: string
  readonly machine: string
  readonly sizes: string
  readonly rounds: number
  readonly compiled: boolean
  /** The machine's load averages, as text. */
  readonly load: string
  readonly notes: readonly string[]
}

const MIB = 1024 * 1024

const fmt = (n: number, digits = 1): string => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits }) : '–')

interface Row {
  readonly contender: string
  readonly ok: number
  readonly runs: number
  readonly mibPerS: ReturnType<typeof summarize>
  readonly seconds: ReturnType<typeof summarize>
  readonly rssMib: ReturnType<typeof summarize>
  readonly cpuMsPerGib: number
  readonly coldMibPerS: number
}

const rowsOf = (runs: readonly StreamRun[], workload: StreamWorkload, contenders: readonly string[]): Row[] =>
  contenders.flatMap((contender) => {
    const all = runs.filter((r) => r.workload === workload && r.contender === contender)
    if (all.length === 0) return []
    const good = all.filter((r) => r.ok)
    return [{
      contender,
      ok: good.length,
      runs: all.length,
      mibPerS: summarize(good.map((r) => r.bytes / MIB / (r.ms / 1000))),
      seconds: summarize(good.map((r) => r.ms / 1000)),
      rssMib: summarize(good.map((r) => r.rssGrowth / MIB)),
      cpuMsPerGib: summarize(good.map((r) => r.serverCpuMs / (r.bytes / (1024 * MIB)))).median,
      coldMibPerS: summarize(good.flatMap((r) => (r.coldMs === undefined ? [] : [r.bytes / MIB / (r.coldMs / 1000)]))).median,
    }]
  })

const judge = (pass: boolean | undefined, row: Row | undefined): string =>
  row === undefined ? 'not measured' : row.ok === 0 ? '**not met** (no run succeeded)' : pass === undefined ? 'not measured (no reference)' : pass ? '**met**' : '**not met**'

const times = (n: number): string => (Number.isFinite(n) ? `${fmt(n, 2)}×` : '–')

const range = (s: { readonly min: number; readonly max: number }, digits: number): string =>
  Number.isFinite(s.min) ? `${fmt(s.min, digits)}–${fmt(s.max, digits)}` : '–'

const ratio = (a: number, b: number): number => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : Number.NaN)

const ratioOrUndefined = (r: number, target: number): boolean | undefined => (Number.isFinite(r) ? r >= target : undefined)

const rssPass = (row: Row | undefined, mib: number): boolean | undefined =>
  row === undefined || row.ok === 0 ? undefined : row.ok === row.runs && row.rssMib.max <= mib

/** The section, as Markdown. */
export const renderStreaming = (runs: readonly StreamRun[], ctx: StreamContext): string => {
  const out: string[] = []
  out.push('## Streaming (issue 22)', '')
  out.push(`\`${ctx.command}\`, ${ctx.date}; ${ctx.machine}; ${ctx.rounds} round(s), contenders interleaved, a fresh server per run; servers ${ctx.compiled ? 'compiled (tsc -p tsconfig.bench.json), plain node' : 'from source under tsx'}, pinned to CPU 0, clients on CPU 1. ${ctx.sizes} Machine: ${ctx.load}.`)
  for (const note of ctx.notes) out.push('', note)
  const disturbed = runs.filter((r) => !r.quiet).length
  if (disturbed > 0) out.push('', `${disturbed} of ${runs.length} runs started on a busy machine (another process used CPU): read their figures with care.`)
  const unsettled = runs.filter((r) => r.ok && !r.settled).length
  if (unsettled > 0) out.push('', `In ${unsettled} of ${runs.length} runs the server's RSS had not held still within 3 s of the GC: their baseline is the last sample.`)

  const download = rowsOf(runs, 'download', ['twinport', 'raw-net', 'node-http'])
  if (download.length > 0) {
    const raw = download.find((r) => r.contender === 'raw-net')
    const http = download.find((r) => r.contender === 'node-http')
    const tp = download.find((r) => r.contender === 'twinport')
    out.push('', '### Streamed download, one connection', '')
    out.push('| contender | MiB/s warm (median) | min–max | vs raw node:net | vs node:http | cold first run MiB/s (median) | cold vs raw cold | server RSS growth MiB (median / worst) | server CPU ms per GiB | runs ok |')
    out.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|')
    for (const r of download) {
      out.push(`| ${r.contender} | ${fmt(r.mibPerS.median, 0)} | ${range(r.mibPerS, 0)} | ${times(ratio(r.mibPerS.median, raw?.mibPerS.median ?? Number.NaN))} | ${times(ratio(r.mibPerS.median, http?.mibPerS.median ?? Number.NaN))} | ${fmt(r.coldMibPerS, 0)} | ${times(ratio(r.coldMibPerS, raw?.coldMibPerS ?? Number.NaN))} | ${fmt(r.rssMib.median)} / ${fmt(r.rssMib.max)} | ${fmt(r.cpuMsPerGib, 0)} | ${r.ok}/${r.runs} |`)
    }
    out.push('')
    out.push(`- twinport ≥ 0.9× raw node:net: ${judge(ratioOrUndefined(ratio(tp?.mibPerS.median ?? Number.NaN, raw?.mibPerS.median ?? Number.NaN), 0.9), tp)}`)
    out.push(`- twinport ≥ 1.5× node:http + res.write: ${judge(ratioOrUndefined(ratio(tp?.mibPerS.median ?? Number.NaN, http?.mibPerS.median ?? Number.NaN), 1.5), tp)}`)
    out.push(`- twinport's server RSS growth ≤ 8 MiB in every run: ${judge(rssPass(tp, 8), tp)}`)
  }

  for (const [workload, title, rssTarget, speedTarget] of [
    ['upload64', 'Concurrent multipart uploads to disk', 32, true],
    ['upload1g', 'One large multipart upload to disk', 16, false],
  ] as const) {
    const rows = rowsOf(runs, workload, ['twinport', 'twinport-native', 'fastify'])
    if (rows.length === 0) continue
    const fastify = rows.find((r) => r.contender === 'fastify')
    out.push('', `### ${title}`, '')
    out.push('| contender | total s (median) | min–max | MiB/s of files | speed vs fastify | server RSS growth MiB (median / worst) | server CPU ms per GiB | CPU vs fastify | runs ok |')
    out.push('|---|--:|--:|--:|--:|--:|--:|--:|--:|')
    for (const r of rows) {
      out.push(`| ${r.contender} | ${fmt(r.seconds.median, 2)} | ${range(r.seconds, 2)} | ${fmt(r.mibPerS.median, 0)} | ${times(ratio(fastify?.seconds.median ?? Number.NaN, r.seconds.median))} | ${fmt(r.rssMib.median)} / ${fmt(r.rssMib.max)} | ${fmt(r.cpuMsPerGib, 0)} | ${times(ratio(r.cpuMsPerGib, fastify?.cpuMsPerGib ?? Number.NaN))} | ${r.ok}/${r.runs} |`)
    }
    out.push('')
    for (const name of ['twinport', 'twinport-native']) {
      const tp = rows.find((r) => r.contender === name)
      if (tp === undefined) continue
      if (speedTarget) out.push(`- ${name} ≥ 1.5× faster than fastify + @fastify/multipart: ${judge(ratioOrUndefined(ratio(fastify?.seconds.median ?? Number.NaN, tp.seconds.median), 1.5), tp)}`)
      out.push(`- ${name}'s server RSS growth ≤ ${rssTarget} MiB in every run: ${judge(rssPass(tp, rssTarget), tp)}`)
    }
  }

  const parse = rowsOf(runs, 'parse1g', ['twinport', 'twinport-native', 'fastify'])
  if (parse.length > 0) {
    const fastify = parse.find((r) => r.contender === 'fastify')
    out.push('', '### The upload path without the sink (one large upload, bytes counted only)', '')
    out.push('| contender | total s (median) | MiB/s of files | server CPU ms per GiB | CPU vs fastify | runs ok |')
    out.push('|---|--:|--:|--:|--:|--:|')
    for (const r of parse) {
      out.push(`| ${r.contender} | ${fmt(r.seconds.median, 2)} | ${fmt(r.mibPerS.median, 0)} | ${fmt(r.cpuMsPerGib, 0)} | ${times(ratio(r.cpuMsPerGib, fastify?.cpuMsPerGib ?? Number.NaN))} | ${r.ok}/${r.runs} |`)
    }
  }

  const failed = runs.filter((r) => !r.ok)
  if (failed.length > 0) {
    out.push('', '### Runs that failed', '')
    for (const r of failed) out.push(`- ${r.workload}, ${r.contender}, round ${r.round}: ${r.error ?? 'wrong answer'}`)
  }
  return `${out.join('\n')}\n`
}

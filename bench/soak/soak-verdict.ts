/**
 * The soak's pass/fail (`bench/soak.ts`), pure: least-squares slopes over the samples after
 * warm-up (start-up is not judged) of the heap used right after a full GC (the leak signal:
 * what the server retains), of RSS (a looser bound: it also holds memory V8 and malloc keep
 * without the program holding it) and of handle counts; the worst event-loop p99 beyond an
 * idle probe's at the same time (the machine's own delay, taken out); the load processes'
 * error counters turned into failed checks; and each refused resume judged by its cause
 * against the faults injected. No I/O, no `node:*` imports.
 */

/** One server sample, as the verdict needs it (time in ms). */
export interface Point {
  readonly at: number
  readonly rss: number
  readonly handles: number
  readonly loopP99Ms: number
  /** ms the loop spent in the soak's own forced full GCs during this sample (its heap measure): such a sample's delay is not judged. */
  readonly forcedGcMs?: number
  /** The share of the sample's wall time the server's event-loop thread waited for a CPU (`/proc/<pid>/schedstat`); negative or absent: unknown. */
  readonly runQueueShare?: number
}

/** A server sample whose loop thread waited for a CPU this share of the time or more is starved by the machine: not judged, counted. */
export const STARVED_SHARE = 0.25

/** One server's heap measured right after a full GC (time in ms, sizes in bytes). */
export interface HeapPoint {
  readonly at: number
  readonly heapUsedAfterGc: number
}

/** The bounds a run is judged by. */
export interface Bounds {
  /** Growth after warm-up of the heap used right after a full GC, MB per minute. */
  readonly heapMbPerMin: number
  /** RSS growth after warm-up, MB per minute (looser than the heap's). */
  readonly rssMbPerMin: number
  /** Handle growth after warm-up, handles per minute. */
  readonly handlesPerMin: number
  /** The worst per-sample event-loop delay p99 beyond the idle probe's at the same time, ms. */
  readonly loopP99Ms: number
}

export interface Check {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
}

/** An idle probe process's event-loop delay p99 over one sample (ms): the machine's own delay then. */
export interface ProbePoint {
  readonly at: number
  readonly loopP99Ms: number
}

/**
 * The probe's p99 for a server sample taken at `at`: the probe sample nearest in time, within
 * `withinMs`; `undefined` when there is none (no probe, or it missed that stretch).
 */
export const probeAt = (probe: readonly ProbePoint[], at: number, withinMs: number): number | undefined => {
  let best: ProbePoint | undefined
  for (const p of probe) if (Math.abs(p.at - at) <= withinMs && (best === undefined || Math.abs(p.at - at) < Math.abs(best.at - at))) best = p
  return best?.loopP99Ms
}

/**
 * The event loop judged against the machine: for each sample its p99 less the idle probe's at
 * the same time (a loaded machine delays an idle process's timers as much as the server's,
 * and that is not the server's doing); the worst of those, the raw worst, and how many samples
 * were disturbed (the probe itself past `boundMs`). Samples without a probe count raw; samples
 * in which the soak forced a full GC (its heap measure) are left out and counted (`forcedGc`), and
 * so are samples whose loop thread waited for a CPU `STARVED_SHARE` of the time or more (`starved`).
 * Every sample left out: the check passes with nothing judged, and its line says so.
 */
export const loopExcess = (
  points: readonly Point[],
  probe: readonly ProbePoint[],
  boundMs: number,
  withinMs = 5000,
): { readonly worst: number; readonly rawWorst: number; readonly probeThen: number; readonly disturbed: number; readonly probed: number; readonly forcedGc: number; readonly starved: number } => {
  let worst = 0
  let rawWorst = 0
  let probeThen = 0
  let disturbed = 0
  let probed = 0
  let forcedGc = 0
  let starved = 0
  for (const p of points) {
    // The soak's own full GC (seconds on a loaded machine) stalls the loop: not judged.
    if ((p.forcedGcMs ?? 0) > 0) {
      forcedGc++
      continue
    }
    // Its thread waited for a CPU a quarter of the time or more: the machine's delay, which an
    // idle probe does not show (it needs the CPU for microseconds; a busy server for most of it).
    if ((p.runQueueShare ?? 0) >= STARVED_SHARE) {
      starved++
      continue
    }
    const machine = probeAt(probe, p.at, withinMs)
    if (machine !== undefined) probed++
    if (machine !== undefined && machine > boundMs) disturbed++
    const excess = p.loopP99Ms - (machine ?? 0)
    if (excess > worst) {
      worst = excess
      probeThen = machine ?? 0
    }
    rawWorst = Math.max(rawWorst, p.loopP99Ms)
  }
  return { worst, rawWorst, probeThen, disturbed, probed, forcedGc, starved }
}

/** The least-squares slope of `y` over `x` (0 with fewer than two distinct x). */
export const slope = (xs: readonly number[], ys: readonly number[]): number => {
  const n = Math.min(xs.length, ys.length)
  if (n < 2) return 0
  let sx = 0
  let sy = 0
  for (let i = 0; i < n; i++) {
    sx += xs[i]!
    sy += ys[i]!
  }
  const mx = sx / n
  const my = sy / n
  let num = 0
  let den = 0
  for (let i = 0; i < n; i++) {
    num += (xs[i]! - mx) * (ys[i]! - my)
    den += (xs[i]! - mx) ** 2
  }
  return den === 0 ? 0 : num / den
}

/**
 * The checks of one server's samples taken after `warmAt` (ms): `points` every few seconds,
 * `heap` (its heap after a full GC) every half minute or so; at least 3 of each after warm-up;
 * `probe` the idle probe's event-loop p99 over the same run (the event loop is judged beyond it).
 */
export const serverChecks = (name: string, points: readonly Point[], heap: readonly HeapPoint[], warmAt: number, bounds: Bounds, probe: readonly ProbePoint[] = []): Check[] => {
  const heapWarm = heap.filter((p) => p.at >= warmAt)
  const heapSlope = slope(heapWarm.map((p) => (p.at - warmAt) / 60_000), heapWarm.map((p) => p.heapUsedAfterGc / 2 ** 20))
  const heapEnough = heapWarm.length >= 3
  const warm = points.filter((p) => p.at >= warmAt)
  const minutes = warm.map((p) => (p.at - warmAt) / 60_000)
  const rss = slope(minutes, warm.map((p) => p.rss / 2 ** 20))
  const handles = slope(minutes, warm.map((p) => p.handles))
  const loop = loopExcess(warm, probe, bounds.loopP99Ms)
  const enough = warm.length >= 3
  return [
    { name: `${name}: samples after warm-up`, ok: enough, detail: `${warm.length} (at least 3)` },
    {
      name: `${name}: heap-after-GC slope`,
      ok: heapEnough && heapSlope <= bounds.heapMbPerMin,
      detail: heapEnough ? `${heapSlope.toFixed(2)} MB/min over ${heapWarm.length} full GCs (bound ${bounds.heapMbPerMin})` : `${heapWarm.length} full GCs after warm-up (at least 3)`,
    },
    { name: `${name}: RSS slope`, ok: enough && rss <= bounds.rssMbPerMin, detail: `${rss.toFixed(2)} MB/min (bound ${bounds.rssMbPerMin})` },
    { name: `${name}: handle slope`, ok: enough && handles <= bounds.handlesPerMin, detail: `${handles.toFixed(2)} /min (bound ${bounds.handlesPerMin})` },
    {
      name: `${name}: event-loop p99 beyond the idle probe's`,
      ok: loop.worst <= bounds.loopP99Ms,
      detail:
        `worst ${loop.worst.toFixed(1)} ms beyond the probe (the probe ${loop.probeThen.toFixed(1)} ms then; bound ${bounds.loopP99Ms}); raw worst ${loop.rawWorst.toFixed(1)} ms; ` +
        `${loop.probed}/${warm.length} samples probed, ${loop.disturbed} disturbed (the idle probe itself past the bound), ${loop.forcedGc} not judged (the soak's own full GC in them), ${loop.starved} not judged (starved: the loop's thread waited for a CPU ≥ ${STARVED_SHARE * 100} % of the time)`,
    },
  ]
}

/**
 * Error kinds that fail a run whatever their count (anything else is reported only). A refused
 * resume (`recovery_<reason>` on the clients) is not one: each is judged by its cause on the
 * server that refused it (`refusalChecks`), right when a fault injected then explains it.
 */
export const FATAL_ERRORS: readonly RegExp[] = [/^seq_gap$/, /^replay_mismatch$/, /^tick_duplicate$/, /^ack_/, /^http_timeout$/, /^http_[45]\d\d$/, /^malformed_unanswered$/, /^error_event_/]

/** The checks of the load processes' final counters. */
export const loadChecks = (errors: Readonly<Record<string, number>>, unanswered: number, detached: number, tickGapsCalm: number): Check[] => {
  const fatal = Object.entries(errors).filter(([kind, n]) => n > 0 && FATAL_ERRORS.some((re) => re.test(kind)))
  return [
    { name: 'no unanswered request', ok: unanswered === 0, detail: `${unanswered} unanswered at the end` },
    { name: 'no lost or duplicated message (seq, ticks, recovery)', ok: fatal.length === 0, detail: fatal.length === 0 ? 'none' : fatal.map(([k, n]) => `${k} ${n}`).join(', ') },
    { name: 'every recovering client back at the end', ok: detached === 0, detail: `${detached} still detached` },
    { name: 'no tick lost outside faults', ok: tickGapsCalm === 0, detail: `${tickGapsCalm} ticks missing` },
  ]
}

// ---- refused resumes, judged by cause against the faults injected ----------------------------

/** One resume a server refused (its debug log): when (ms), how long after the upgrade asked, why. */
export interface Refusal {
  readonly node: string
  readonly at: number
  readonly ms: number
  readonly reason: string
  readonly cause: string
  /** Refused by the node's own table (it did not hold the session), not from the store. */
  readonly local: boolean
}

/** A fault the soak injected, from `from` to `to` (ms), cutting `nodes` off from the store. */
export interface FaultWindow {
  readonly from: number
  readonly to: number
  readonly label: string
  readonly nodes: readonly string[]
}

/**
 * Causes a fault between a node and the store explains on that node: the store failed, did
 * not answer in time, or a claim could not be written (restore-session.ts `RestoreCause`).
 */
export const STORE_FAULT_CAUSES: readonly string[] = ['load_error', 'load_timeout', 'tails_timeout', 'restore_error', 'claim_lost', 'taken_meanwhile']

/**
 * Causes a fault explains on any node: messages a cut-off node could not write to the store
 * (its session log or a target log) are missing when the session is read there.
 */
export const LOST_WRITE_CAUSES: readonly string[] = ['log_trimmed', 'target_gap']

/**
 * Whether a refusal is right: its cause is one a fault explains (`STORE_FAULT_CAUSES` on a node
 * the fault cut off, `LOST_WRITE_CAUSES` anywhere) and the time from its ask to its answer
 * overlaps the fault, or the `graceMs` after it (what was held arrives, journals catch up).
 * Anything else (a session not found, a record behind the client, a local refusal, or any
 * cause in calm) is wrong: a fault does not explain it.
 */
export const judgeRefusal = (refusal: Refusal, faults: readonly FaultWindow[], graceMs: number): { readonly right: boolean; readonly fault: string | undefined } => {
  const asked = refusal.at - refusal.ms
  const store = STORE_FAULT_CAUSES.includes(refusal.cause)
  const lost = LOST_WRITE_CAUSES.includes(refusal.cause)
  if (refusal.local || (!store && !lost)) return { right: false, fault: undefined }
  const fault = faults.find((f) => asked <= f.to + graceMs && refusal.at >= f.from && (lost || f.nodes.includes(refusal.node)))
  return { right: fault !== undefined, fault: fault?.label }
}

/** Refusals counted by node, reason/cause and verdict, for the report. */
export interface RefusalRow {
  readonly node: string
  readonly key: string
  readonly right: boolean
  readonly n: number
  readonly msMean: number
  readonly msMax: number
}

/**
 * The refused resumes judged (`judgeRefusal`): both counts, the rows of the report, and the
 * checks: no wrong refusal, and the clients saw no more refusals than the servers logged
 * (a refusal no server accounts for is not judged, so it counts as wrong).
 */
export const refusalChecks = (refusals: readonly Refusal[], faults: readonly FaultWindow[], graceMs: number, clientRefused: number): { readonly checks: Check[]; readonly right: number; readonly wrong: number; readonly rows: RefusalRow[] } => {
  const rows = new Map<string, { node: string; key: string; right: boolean; n: number; msSum: number; msMax: number }>()
  let right = 0
  for (const r of refusals) {
    const judged = judgeRefusal(r, faults, graceMs)
    if (judged.right) right++
    const key = `${r.reason}/${r.cause}${r.local ? ' (local)' : ''}`
    const id = `${r.node} ${key} ${judged.right}`
    const row = rows.get(id) ?? { node: r.node, key, right: judged.right, n: 0, msSum: 0, msMax: 0 }
    row.n++
    row.msSum += r.ms
    row.msMax = Math.max(row.msMax, r.ms)
    rows.set(id, row)
  }
  const wrong = refusals.length - right
  const unlogged = Math.max(0, clientRefused - refusals.length)
  return {
    right,
    wrong,
    rows: [...rows.values()].sort((x, y) => x.node.localeCompare(y.node) || x.key.localeCompare(y.key)).map(({ msSum, ...row }) => ({ ...row, msMean: msSum / row.n })),
    checks: [
      { name: 'no wrong refused resume (cause not explained by a fault then)', ok: wrong === 0, detail: `${wrong} wrong, ${right} right (explained by a fault)` },
      { name: 'every refusal the clients saw is logged by a server', ok: unlogged === 0, detail: `clients ${clientRefused}, servers ${refusals.length}` },
    ],
  }
}

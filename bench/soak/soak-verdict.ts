/**
 * The soak's pass/fail (`bench/soak.ts`), pure: least-squares slopes over the samples after
 * warm-up (start-up is not judged) of the heap used right after a full GC (the leak signal:
 * what the server retains), of RSS (a looser bound: it also holds memory V8 and malloc keep
 * without the program holding it) and of handle counts, the worst event-loop p99, and the
 * load processes' error counters turned into failed checks. No I/O, no `node:*` imports.
 */

/** One server sample, as the verdict needs it (time in ms). */
export interface Point {
  readonly at: number
  readonly rss: number
  readonly handles: number
  readonly loopP99Ms: number
}

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
  /** The worst per-sample event-loop delay p99, ms. */
  readonly loopP99Ms: number
}

export interface Check {
  readonly name: string
  readonly ok: boolean
  readonly detail: string
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
 * `heap` (its heap after a full GC) every half minute or so; at least 3 of each after warm-up.
 */
export const serverChecks = (name: string, points: readonly Point[], heap: readonly HeapPoint[], warmAt: number, bounds: Bounds): Check[] => {
  const heapWarm = heap.filter((p) => p.at >= warmAt)
  const heapSlope = slope(heapWarm.map((p) => (p.at - warmAt) / 60_000), heapWarm.map((p) => p.heapUsedAfterGc / 2 ** 20))
  const heapEnough = heapWarm.length >= 3
  const warm = points.filter((p) => p.at >= warmAt)
  const minutes = warm.map((p) => (p.at - warmAt) / 60_000)
  const rss = slope(minutes, warm.map((p) => p.rss / 2 ** 20))
  const handles = slope(minutes, warm.map((p) => p.handles))
  const loop = warm.reduce((worst, p) => Math.max(worst, p.loopP99Ms), 0)
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
    { name: `${name}: event-loop p99`, ok: loop <= bounds.loopP99Ms, detail: `worst ${loop.toFixed(1)} ms (bound ${bounds.loopP99Ms})` },
  ]
}

/** Error kinds that fail a run whatever their count (anything else is reported only). */
export const FATAL_ERRORS: readonly RegExp[] = [/^seq_gap$/, /^replay_mismatch$/, /^tick_duplicate$/, /^recovery_/, /^ack_/, /^http_timeout$/, /^http_[45]\d\d$/, /^malformed_unanswered$/, /^error_event_/]

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

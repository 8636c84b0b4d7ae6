/**
 * `Histogram`: observations counted in fixed buckets per label set (OpenTelemetry's explicit
 * bucket histogram, Prometheus' `le` buckets). An observation is a search for its bucket and
 * three updates; nothing is allocated. Pure and portable: no node:* imports.
 */
import { DEFAULT_MAX_SERIES, type InstrumentSpec } from './instrument.js'
import { SeriesTable } from './series-table.js'

/** OpenTelemetry's advised boundaries for `http.server.request.duration`, in seconds. */
export const DURATION_BUCKETS: readonly number[] = Object.freeze([0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5, 10])

/** Told each observation of a histogram's series (`Histogram.listen`): what an exporter that records them itself needs. */
export type HistogramListener = (series: HistogramSeries, value: number) => void

/** One label set of a histogram: a count per bucket (the last: past every bound), the sum and count. */
export class HistogramSeries {
  readonly counts: Float64Array
  sum = 0
  count = 0
  constructor(
    readonly values: readonly string[],
    private readonly bounds: readonly number[],
    private readonly owner?: { readonly listener: HistogramListener | undefined },
  ) {
    this.counts = new Float64Array(bounds.length + 1)
  }
  /** Counts `value` in the first bucket whose upper bound is at least it. */
  observe(value: number): void {
    this.observeMany(value, 1)
  }
  /**
   * Counts `value` `times` times: one bucket search for observations that are equal (the
   * answers of one chunk of pipelined requests, timed together).
   */
  observeMany(value: number, times: number): void {
    const bounds = this.bounds
    let low = 0
    let high = bounds.length
    while (low < high) {
      const mid = (low + high) >>> 1
      if (value <= (bounds[mid] as number)) high = mid
      else low = mid + 1
    }
    ;(this.counts[low] as number) += times
    this.sum += value * times
    this.count += times
    const listener = this.owner?.listener
    if (listener !== undefined) for (let i = 0; i < times; i++) listener(this, value)
  }
}

/** A histogram's spec: the instrument's, with its bucket upper bounds (ascending). */
export interface HistogramSpec extends InstrumentSpec {
  /** Upper bounds, ascending (default {@link DURATION_BUCKETS}). */
  readonly buckets?: readonly number[]
}

export class Histogram {
  readonly kind = 'histogram' as const
  readonly buckets: readonly number[]
  /** Told each observation, when something listens (`listen`). */
  listener: HistogramListener | undefined = undefined
  private readonly table: SeriesTable<HistogramSeries>
  constructor(readonly spec: HistogramSpec) {
    const buckets = spec.buckets ?? DURATION_BUCKETS
    for (let i = 1; i < buckets.length; i++) {
      if (!((buckets[i] as number) > (buckets[i - 1] as number))) throw new Error(`histogram ${spec.name}: buckets must ascend`)
    }
    this.buckets = Object.freeze([...buckets])
    this.table = new SeriesTable(spec.labels?.length ?? 0, spec.maxSeries ?? DEFAULT_MAX_SERIES, (values) => new HistogramSeries(values, this.buckets, this))
  }
  labels(...values: string[]): HistogramSeries {
    return this.table.get(values)
  }
  /** The series of a one-label instrument (no array made: for hot paths with a changing label). */
  series(value: string): HistogramSeries {
    return this.table.one(value)
  }
  all(): readonly HistogramSeries[] {
    return this.table.all()
  }
  /**
   * Tells `listener` each observation from now on (after the series counted it), as well as any
   * listener before: `twinport/otel` records them on an OpenTelemetry histogram this way.
   */
  listen(listener: HistogramListener): void {
    const before = this.listener
    this.listener = before === undefined ? listener : (series, value) => (before(series, value), listener(series, value))
  }
}

/**
 * `Counter`: a monotonic sum per label set (OpenTelemetry's Counter). `counter.labels(…)`
 * resolves a series once; `series.add(n)` is one addition. Pure and portable: no node:*
 * imports.
 */
import { DEFAULT_MAX_SERIES, type InstrumentSpec } from './instrument.js'
import { SeriesTable } from './series-table.js'

/** One label set of a counter. */
export class CounterSeries {
  value = 0
  constructor(readonly values: readonly string[]) {}
  /** Adds `n` (default 1); a negative or non-finite `n` is ignored (a counter only grows). */
  add(n = 1): void {
    if (n >= 0 && n !== Infinity) this.value += n
  }
}

export class Counter {
  readonly kind = 'counter' as const
  private readonly table: SeriesTable<CounterSeries>
  constructor(readonly spec: InstrumentSpec) {
    this.table = new SeriesTable(spec.labels?.length ?? 0, spec.maxSeries ?? DEFAULT_MAX_SERIES, (values) => new CounterSeries(values))
  }
  /** The series of these label values (in the spec's label order). */
  labels(...values: string[]): CounterSeries {
    return this.table.get(values)
  }
  /** The series of a one-label instrument (no array made: for hot paths with a changing label). */
  series(value: string): CounterSeries {
    return this.table.one(value)
  }
  /** Every series made so far. */
  all(): readonly CounterSeries[] {
    return this.table.all()
  }
}

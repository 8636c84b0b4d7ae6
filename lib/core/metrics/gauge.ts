/**
 * `Gauge`: a value that goes up and down per label set (OpenTelemetry's UpDownCounter and
 * Gauge). A gauge may also be observed: `observe(read)` registers a function the registry calls
 * when it is collected (a scrape), so a value the server already keeps (connections open,
 * rooms) costs nothing until then. Pure and portable: no node:* imports.
 */
import { DEFAULT_MAX_SERIES, type InstrumentSpec } from './instrument.js'
import { SeriesTable } from './series-table.js'

/** One label set of a gauge. */
export class GaugeSeries {
  value = 0
  constructor(readonly values: readonly string[]) {}
  set(value: number): void {
    this.value = value
  }
  add(n = 1): void {
    this.value += n
  }
}

/** Sets a gauge's series when it is collected: `set(value, ...labelValues)`. */
export type GaugeReader = (set: (value: number, ...labels: string[]) => void) => void

export class Gauge {
  readonly kind = 'gauge' as const
  private readonly table: SeriesTable<GaugeSeries>
  private readonly readers: GaugeReader[] = []
  constructor(readonly spec: InstrumentSpec) {
    this.table = new SeriesTable(spec.labels?.length ?? 0, spec.maxSeries ?? DEFAULT_MAX_SERIES, (values) => new GaugeSeries(values))
  }
  labels(...values: string[]): GaugeSeries {
    return this.table.get(values)
  }
  /** The series of a one-label instrument (no array made: for hot paths with a changing label). */
  series(value: string): GaugeSeries {
    return this.table.one(value)
  }
  /** Read when the gauge is collected; the reader sets the series it knows. */
  observe(reader: GaugeReader): this {
    this.readers.push(reader)
    return this
  }
  /** Runs the readers (a reader that throws leaves its series as they were), then answers every series. */
  all(): readonly GaugeSeries[] {
    for (const read of this.readers) {
      try {
        read((value, ...labels) => this.table.get(labels).set(value))
      } catch {
        // A broken reader must not break the scrape.
      }
    }
    return this.table.all()
  }
}

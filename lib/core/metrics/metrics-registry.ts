/**
 * `createMetricsRegistry`: a server's instruments (counters, gauges, histograms), dependency
 * free and cheap enough to leave on: each hot path resolves its label set once and then
 * adds, sets or observes with no allocation. A registry belongs to one server (or to an
 * application that shares it between its servers on purpose); nothing here is module state.
 * Pure and portable: no node:* imports.
 */
import { Counter } from './counter.js'
import { Gauge } from './gauge.js'
import { Histogram, type HistogramSpec } from './histogram.js'
import type { InstrumentSpec } from './instrument.js'

/** Any instrument of a registry. */
export type Instrument = Counter | Gauge | Histogram

export interface MetricsRegistryOptions {
  /**
   * Labels every series carries, e.g. `{ node: 'a' }` so each node of a cluster is told apart
   * once Prometheus scrapes them all.
   */
  readonly labels?: Readonly<Record<string, string>>
}

export class MetricsRegistry {
  private readonly byName = new Map<string, Instrument>()
  /** The labels every series carries. */
  readonly constLabels: Readonly<Record<string, string>>

  constructor(options: MetricsRegistryOptions = {}) {
    this.constLabels = Object.freeze({ ...(options.labels ?? {}) })
  }

  /** The counter named `spec.name` (made on first use; the same one after). */
  counter(spec: InstrumentSpec): Counter {
    return this.named(spec.name, 'counter', () => new Counter(spec))
  }

  /** The gauge named `spec.name` (made on first use; the same one after). */
  gauge(spec: InstrumentSpec): Gauge {
    return this.named(spec.name, 'gauge', () => new Gauge(spec))
  }

  /** The histogram named `spec.name` (made on first use; the same one after). */
  histogram(spec: HistogramSpec): Histogram {
    return this.named(spec.name, 'histogram', () => new Histogram(spec))
  }

  /** Every instrument, in the order they were made. */
  instruments(): readonly Instrument[] {
    return [...this.byName.values()]
  }

  /** The instrument named `name`, if any. */
  get(name: string): Instrument | undefined {
    return this.byName.get(name)
  }

  private named<T extends Instrument>(name: string, kind: T['kind'], make: () => T): T {
    const found = this.byName.get(name)
    if (found !== undefined) {
      if (found.kind !== kind) throw new Error(`metric ${name} is a ${found.kind}, not a ${kind}`)
      return found as T
    }
    const made = make()
    this.byName.set(name, made)
    return made
  }
}

/**
 * A new, empty registry.
 *
 * @example
 * const metrics = createMetricsRegistry({ labels: { node: 'a' } })
 * const jobs = metrics.counter({ name: 'app.jobs', description: 'Jobs done.', unit: '{job}', labels: ['kind'] })
 * const email = jobs.labels('email') // resolved once, kept
 * email.add()
 */
export const createMetricsRegistry = (options: MetricsRegistryOptions = {}): MetricsRegistry => new MetricsRegistry(options)

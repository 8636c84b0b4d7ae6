/**
 * `exportRegistry`: a twinport metrics registry through the OpenTelemetry Meter API, so any
 * OpenTelemetry exporter gets what `metricsRoute()` serves: counters as observable counters and
 * gauges as observable gauges (read when the SDK collects, from the values the registry keeps),
 * histograms recorded on OpenTelemetry histograms with the same buckets as each observation is
 * made (`Histogram.listen`; the API has no observable histogram). Names, units and descriptions
 * are the registry's (OpenTelemetry's own: `http.server.request.duration`, `s`); each series'
 * labels and the registry's constant labels (`node`) are the attributes. Imports
 * `@opentelemetry/api` and the core; never `node:*`.
 */
import type { Attributes, Meter } from '@opentelemetry/api'
import type { MetricsRegistry } from '../core/metrics/metrics-registry.js'

interface Labelled {
  readonly values: readonly string[]
}

/**
 * Exports every instrument `registry` holds now through `meter`.
 *
 * @example
 * exportRegistry(registry, meterProvider.getMeter('twinport'))
 */
export const exportRegistry = (registry: MetricsRegistry, meter: Meter): void => {
  const constant = registry.constLabels
  for (const instrument of registry.instruments()) {
    const { spec } = instrument
    const names = spec.labels ?? []
    // One attribute record per series, made on its first export and kept.
    const attributes = new WeakMap<Labelled, Attributes>()
    const attributesOf = (series: Labelled): Attributes => {
      let found = attributes.get(series)
      if (found === undefined) {
        const made: Record<string, string> = { ...constant }
        for (let i = 0; i < names.length; i++) made[names[i] as string] = series.values[i] ?? ''
        attributes.set(series, (found = made))
      }
      return found
    }
    const options = { description: spec.description, unit: spec.unit }
    if (instrument.kind === 'histogram') {
      const histogram = meter.createHistogram(spec.name, { ...options, advice: { explicitBucketBoundaries: [...instrument.buckets] } })
      instrument.listen((series, value) => histogram.record(value, attributesOf(series)))
    } else if (instrument.kind === 'counter') {
      meter.createObservableCounter(spec.name, options).addCallback((result) => {
        for (const series of instrument.all()) result.observe(series.value, attributesOf(series))
      })
    } else {
      meter.createObservableGauge(spec.name, options).addCallback((result) => {
        for (const series of instrument.all()) result.observe(series.value, attributesOf(series))
      })
    }
  }
}

/**
 * The metrics registry's public names (re-exported by `twinport/core`). Pure and portable.
 */
export { Counter, CounterSeries } from './counter.js'
export { Gauge, GaugeSeries, type GaugeReader } from './gauge.js'
export { DURATION_BUCKETS, Histogram, type HistogramListener, HistogramSeries, type HistogramSpec } from './histogram.js'
export { DEFAULT_MAX_SERIES, OVERFLOW_LABEL, type InstrumentKind, type InstrumentSpec } from './instrument.js'
export { createMetricsRegistry, type Instrument, MetricsRegistry, type MetricsRegistryOptions } from './metrics-registry.js'
export { prometheusLabel, prometheusName } from './prometheus-name.js'
export { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from './render-prometheus.js'
export type { ClusterLinkState, ServerHealth } from './server-health.js'

/**
 * An OpenTelemetry SDK attached as an application would attach it, with exporters that drop
 * what they get (the benchmarks measure the server's side, not an exporter's network):
 * spans through a `BatchSpanProcessor`, metrics through a `PeriodicExportingMetricReader`
 * every 10 s. For bench/metrics-overhead.ts and bench/metrics-overhead-e2e.ts.
 */
import { AggregationTemporality, MeterProvider, PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base'
import { otelInstrumentation, type OtelInstrumentation } from '../../lib/otel/index.js'

const dropSpans: SpanExporter = { export: (_spans, done) => done({ code: 0 }), shutdown: async () => undefined }
const dropMetrics: PushMetricExporter = {
  export: (_metrics, done) => done({ code: 0 }),
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
  selectAggregationTemporality: () => AggregationTemporality.CUMULATIVE,
}

/** `otelInstrumentation` over an SDK whose exporters drop everything. */
export const attachedSdk = (): OtelInstrumentation => {
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(dropSpans)] })
  const meterProvider = new MeterProvider({ readers: [new PeriodicExportingMetricReader({ exporter: dropMetrics, exportIntervalMillis: 10_000 })] })
  return otelInstrumentation({ tracerProvider, meterProvider })
}

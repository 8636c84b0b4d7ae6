/**
 * `twinport/otel`: the bridge to OpenTelemetry (`@opentelemetry/api`, an optional peer
 * dependency; no SDK): `otelInstrumentation` for the `instrumentation` server option (spans,
 * and the metrics through the Meter API), `otelContext` so a handler's spans nest under its
 * request's or event's. Neither the core nor the engine imports it.
 */
export { exportRegistry } from './export-registry.js'
export { otelContext } from './otel-context.js'
export { type OtelInstrumentation, otelInstrumentation, type OtelOptions } from './otel-instrumentation.js'

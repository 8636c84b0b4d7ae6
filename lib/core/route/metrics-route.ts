/**
 * `metricsRoute`: `GET /metrics` (or another path) answering the server's metrics in the
 * Prometheus text format, from the registry the server hands its HTTP handlers
 * (`ctx.metrics`). Pure and portable: no node:* imports.
 */
import { errorResponse, response } from '../http/response.js'
import { httpRoute } from './http-route.js'
import type { HttpRoute } from './route.js'
import { PROMETHEUS_CONTENT_TYPE, renderPrometheus } from '../metrics/render-prometheus.js'

/**
 * A route serving the server's metrics as Prometheus text (format 0.0.4): 404 when the
 * server's metrics are off (`metrics: false`).
 *
 * @example
 * await runServer({ routes: [metricsRoute(), healthRoute()] })
 */
export const metricsRoute = <P extends string = '/metrics'>(path: P = '/metrics' as P): HttpRoute<'GET', P> =>
  httpRoute('GET', path, (_req, ctx) => {
    const metrics = ctx.metrics
    if (metrics === undefined) return errorResponse(404, 'not_found')
    return response(renderPrometheus(metrics), 200, { 'Content-Type': PROMETHEUS_CONTENT_TYPE, 'Cache-Control': 'no-store' })
  })

/**
 * `healthRoute`: liveness and readiness as JSON. `GET <path>/live` is 200 while the server
 * answers at all; `GET <path>/ready` and `GET <path>` are 200 when the server takes work and
 * 503 while it drains (and, when asked, while its cluster link is down), the body listing
 * why. Reads the server's state from the handler's context (`ctx.health`). Pure and
 * portable: no node:* imports.
 */
import { json } from '../http/response.js'
import type { Response } from '../http/types.js'
import type { HttpContext } from './http-context.js'
import { httpRoute } from './http-route.js'
import type { HttpRoute } from './route.js'

export interface HealthRouteOptions {
  /** Where (default `/health`); `<path>/live` and `<path>/ready` beside it. */
  readonly path?: string
  /** Not ready while the cluster link is down or not yet up (default `false`). */
  readonly requireCluster?: boolean
  /** The application's own checks: each answers a reason it is not ready, or `undefined`. */
  readonly checks?: readonly (() => string | undefined)[]
}

/** The JSON body of every health answer. */
export interface HealthReport {
  readonly status: 'ready' | 'not ready' | 'live'
  readonly live: true
  readonly ready: boolean
  /** Why the server is not ready (empty when it is). */
  readonly reasons: readonly string[]
  readonly node?: string
  readonly cluster?: string
}

const reasonsOf = (ctx: HttpContext, options: HealthRouteOptions): { reasons: string[]; node?: string; cluster?: string } => {
  const reasons: string[] = []
  const health = ctx.health?.()
  if (health?.draining === true) reasons.push('draining: the server is shutting down')
  if (options.requireCluster === true && health !== undefined && health.cluster !== 'alone' && health.cluster !== 'up') reasons.push(`cluster link ${health.cluster}`)
  for (const check of options.checks ?? []) {
    try {
      const reason = check()
      if (reason !== undefined) reasons.push(reason)
    } catch (error) {
      reasons.push(`check failed: ${error instanceof Error ? error.message : String(error)}`)
    }
  }
  return { reasons, ...(health === undefined ? {} : { node: health.node, cluster: health.cluster }) }
}

const ready = (ctx: HttpContext, options: HealthRouteOptions): Response => {
  const { reasons, ...rest } = reasonsOf(ctx, options)
  const ok = reasons.length === 0
  const body: HealthReport = { status: ok ? 'ready' : 'not ready', live: true, ready: ok, reasons, ...rest }
  return json(body as unknown as Parameters<typeof json>[0], ok ? 200 : 503, { 'Cache-Control': 'no-store' })
}

/**
 * The health routes: `GET /health` and `GET /health/ready` (200 ready, 503 not), `GET /health/live` (200).
 *
 * @example
 * await runServer({ routes: [healthRoute({ requireCluster: true })], cluster: redisAdapter({ url }) })
 */
export const healthRoute = (options: HealthRouteOptions = {}): readonly HttpRoute[] => {
  const path = (options.path ?? '/health').replace(/\/+$/, '') || '/'
  const under = path === '/' ? '' : path
  return [
    httpRoute('GET', path, (_req, ctx) => ready(ctx, options)),
    httpRoute('GET', `${under}/ready`, (_req, ctx) => ready(ctx, options)),
    httpRoute('GET', `${under}/live`, (_req, ctx) => {
      const { reasons, ...rest } = reasonsOf(ctx, options)
      const body: HealthReport = { status: 'live', live: true, ready: reasons.length === 0, reasons, ...rest }
      return json(body as unknown as Parameters<typeof json>[0], 200, { 'Cache-Control': 'no-store' })
    }),
  ]
}

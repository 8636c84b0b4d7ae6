/**
 * `toWorker(options)`: a route table as a Cloudflare Worker (issue 24). The HTTP side is
 * `toFetch`'s (the engine's own dispatch, without a socket); the WebSocket side runs in
 * Durable Object hubs (`hubClass`) on the Hibernation API, so a `socketOn` table runs
 * unchanged: typed payloads, acks, error events, rooms and broadcasts, connect and disconnect
 * handlers. The Worker decides each upgrade (`decideUpgrade`) and hands it to the hub
 * `hubOf` names (by default the upgrade's path: docs/decisions.md "Workers: one Durable Object
 * per hub"). What cannot work on Workers is said once, when the app is made (a log line per
 * missing feature), and in docs/guide.md "On Cloudflare Workers".
 *
 * Portable: no node:* imports, no Buffer, no process (it runs on workerd).
 */
import { guardUpgrades } from '../core/route/guard-upgrades.js'
import * as E from 'fp-ts/lib/Either.js'
import { responseParts } from '../core/http/response-parts.js'
import type { HttpRequest, Response as Answer } from '../core/http/types.js'
import { pullOf } from '../core/http/pull-source.js'
import type { Logger } from '../core/log/logger.js'
import { compileRoutes } from '../core/route/compile-routes.js'
import { composeHttp } from '../core/route/compose-http.js'
import { routes } from '../core/route/routes.js'
import { resolveOptions } from '../engine/options/server-options.js'
import { type FetchHandler, type FetchOptions, toFetch } from '../fetch/to-fetch.js'
import { httpRequestOfWeb, targetOf } from '../fetch/web-request.js'
import { decideUpgrade, type UpgradeRules } from './decide-upgrade.js'
import { HANDOFF_HEADER, type HubClass, hubClass } from './hub-class.js'
import { type BroadcastHubs, hubCluster } from './hub-cluster.js'
import { type DurableObjectNamespaceLike, upgradeResponse, webSocketPair } from './workers-api.js'

/** The default name of the Durable Object binding in the Worker's `env`. */
export const DEFAULT_HUB_BINDING = 'TWINPORT_HUB'

/** The options of `toWorker`: `toFetch`'s, and where WebSocket clients go. */
export interface WorkerOptions extends Omit<FetchOptions, 'cluster'> {
  /** The name of the Durable Object namespace binding in `env` (default `TWINPORT_HUB`). */
  readonly binding?: string
  /**
   * The name of the hub (one Durable Object) an accepted upgrade goes to; clients of one hub
   * share rooms and broadcasts. Default: the upgrade's path (`/chat` and `/bcast` are two hubs).
   */
  readonly hubOf?: (request: HttpRequest) => string
  /**
   * The hubs a broadcast from an HTTP handler (`ctx.broadcast`, `app.http.broadcast`) reaches:
   * their names as `hubOf` gives them, a list or a function of the broadcast's target (e.g.
   * `({ room }) => [room]` with one hub per room). Absent: such a broadcast reaches no hub.
   */
  readonly broadcastHubs?: BroadcastHubs
  /** Not available on Workers (no TCP to a Redis server from a hub): refused at start-up if given. */
  readonly cluster?: never
}

/** A Worker: the module's default export (`fetch`) and the Durable Object class to export beside it. */
export interface WorkerApp {
  /**
   * The Worker's fetch handler: `export default { fetch: app.fetch }`. Broadcasts an HTTP
   * handler makes are posted to their hubs under `ctx.waitUntil` (awaited when there is no `ctx`).
   */
  readonly fetch: (request: Request, env: Readonly<Record<string, unknown>>, ctx?: WaitUntil) => Promise<Response>
  /** The hub class: `export const TwinportHub = app.Hub`, bound as `binding` (`class_name = "TwinportHub"`). */
  readonly Hub: HubClass
  /** The HTTP side alone (`toFetch` of the same options). */
  readonly http: FetchHandler
}

/** The part of a Worker's `ExecutionContext` used: keeping work alive after the answer. */
export interface WaitUntil {
  waitUntil(promise: Promise<unknown>): void
}

const EMPTY = new Uint8Array(0)

// A refusal as a web Response: its status, headers and bytes (a streamed body is not sent).
const refusalOf = (answer: Answer): Response => {
  const parts = responseParts(answer, false)
  const headers = new Headers()
  for (const [name, value] of parts.headers) headers.append(name, value)
  const body = parts.body
  if (body !== undefined && !(body instanceof Uint8Array)) pullOf(body.source).cancel(new Error('no body is sent for a refused upgrade'))
  return new Response(body instanceof Uint8Array ? (body as Uint8Array<ArrayBuffer>) : null, { status: parts.status, headers })
}

const jsonError = (status: number, error: string): Response =>
  new Response(JSON.stringify({ error }), { status, headers: { 'content-type': 'application/json' } })

/**
 * What this app cannot have on Workers, one line each (logged once, when the app is made).
 *
 * @example
 * workersNotes({}) // ['twinport/workers: not available on Workers: session recovery ...']
 */
export const workersNotes = (options: WorkerOptions): readonly string[] => [
  'twinport/workers: not available on Workers: session recovery (a client asking for a session gets a plain connection), ' +
    'server requests (requestClient/requestRoom answer not_supported), WebSocket clients reached from HTTP handlers ' +
    '(only broadcast reaches hubs, those the broadcastHubs option names; send, disconnectClient, client data and membership reach none), ' +
    'the heartbeat and idle time-outs (the runtime answers pings); ' +
    'rooms, broadcasts and client ids are per hub (Durable Object)',
  ...(options.recovery !== undefined && options.recovery !== false ? ['twinport/workers: the recovery option is ignored: sessions are not kept on Workers'] : []),
  ...(options.perMessageDeflate !== undefined ? ['twinport/workers: the perMessageDeflate option is ignored: the Workers runtime negotiates WebSocket compression itself'] : []),
]

/**
 * The Worker of `options`. Throws an Error naming every bad option or route-table problem,
 * as `runServer` rejects.
 *
 * @example
 * const app = toWorker({ routes: table })
 * export const TwinportHub = app.Hub
 * export default { fetch: app.fetch }
 */
export const toWorker = (options: WorkerOptions = {}): WorkerApp => {
  const { binding = DEFAULT_HUB_BINDING, hubOf = (request: HttpRequest) => request.path, broadcastHubs, ...fetchOptions } = options
  if ((options as { cluster?: unknown }).cluster !== undefined) throw new Error('toWorker: invalid options\n  cluster: not available on Workers (a hub cannot reach a Redis server); leave it out')
  if (typeof hubOf !== 'function') throw new Error('toWorker: invalid options\n  hubOf: expected a function')
  if (broadcastHubs !== undefined && typeof broadcastHubs !== 'function' && !(Array.isArray(broadcastHubs) && broadcastHubs.every((h) => typeof h === 'string'))) {
    throw new Error('toWorker: invalid options\n  broadcastHubs: expected an array of hub names or a function')
  }
  const cluster = hubCluster(broadcastHubs)
  // A Worker isolate keeps no stream for the hubs to reach: an admitted event stream gets 501.
  const http = toFetch({ ...fetchOptions, cluster }, { eventStreams: false })
  const { fallback: _fallback, ...serverOptions } = fetchOptions
  const resolved = resolveOptions(serverOptions)
  // toFetch checked the options and the table already: these cannot fail here.
  if (E.isLeft(resolved)) throw new Error(`toWorker: invalid options\n  ${resolved.left.join('\n  ')}`)
  const compiled = compileRoutes(routes(fetchOptions.routes ?? []))
  if (E.isLeft(compiled)) throw new Error('toWorker: invalid route table')
  const logger: Logger = http.logger
  for (const note of workersNotes(options)) logger.info(note)

  // The table's upgrade guards run after the app's middleware, as on every other server.
  const guard = guardUpgrades(compiled.right.guards)
  const middleware = [...(fetchOptions.httpMiddleware ?? []), ...(guard === undefined ? [] : [guard])]
  const rules: UpgradeRules = {
    options: { allowedOrigins: resolved.right.allowedOrigins, protocols: resolved.right.protocols },
    stack: middleware.length === 0 ? undefined : composeHttp(middleware),
    now: () => Date.now(),
    onHttpError: (error, request) => logger.exception(error, { method: request.method, path: request.path }),
  }
  const Hub = hubClass({
    compiled: compiled.right,
    wsMiddleware: fetchOptions.wsMiddleware ?? [],
    onError: (error, site) => logger.exception(error, { ...site }),
    logger,
  })

  const upgrade = async (request: Request, env: Readonly<Record<string, unknown>>): Promise<Response> => {
    const target = targetOf(request.url)
    // Spreadable: the upgrade goes through the application's middleware, which may copy it with a spread.
    const upgradeRequest = httpRequestOfWeb(request, target, EMPTY, true)
    const verdict = await decideUpgrade(rules, upgradeRequest)
    if (verdict._tag === 'Refused') return refusalOf(verdict.answer)
    const Pair = webSocketPair()
    if (verdict._tag === 'Closed') {
      if (Pair === undefined) return jsonError(500, 'no WebSocketPair in this runtime')
      const pair = new Pair()
      pair[1].accept()
      pair[1].close(verdict.close.code, verdict.close.reason)
      return upgradeResponse(pair[0], new Headers())
    }
    const hubs = env[binding] as DurableObjectNamespaceLike | undefined
    if (hubs === undefined || typeof hubs.idFromName !== 'function') {
      logger.error('twinport/workers: no Durable Object binding {binding} in env: WebSocket upgrades are refused (see examples/workers/wrangler.toml)', { binding })
      return jsonError(500, 'websocket_not_configured')
    }
    const headers = new Headers(request.headers)
    headers.set(HANDOFF_HEADER, JSON.stringify(verdict.handoff))
    return hubs.get(hubs.idFromName(hubOf(upgradeRequest))).fetch(new Request(request.url, { method: 'GET', headers }))
  }

  const serve = async (request: Request, env: Readonly<Record<string, unknown>>, ctx: WaitUntil | undefined): Promise<Response> => {
    cluster.use(env[binding] as DurableObjectNamespaceLike | undefined)
    const answer = await http(request)
    // The posts to hubs outlive the answer only under waitUntil (a Worker's work ends with its answer).
    if (typeof ctx?.waitUntil === 'function') ctx.waitUntil(cluster.settled())
    else await cluster.settled()
    return answer
  }

  const fetch = (request: Request, env: Readonly<Record<string, unknown>>, ctx?: WaitUntil): Promise<Response> =>
    request.headers.get('upgrade')?.toLowerCase() === 'websocket' ? upgrade(request, env ?? {}) : serve(request, env ?? {}, ctx)

  return { fetch, Hub, http }
}

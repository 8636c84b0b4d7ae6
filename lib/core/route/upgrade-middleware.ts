/**
 * `upgradeMiddleware`: an HTTP middleware for WebSocket upgrades only (Socket.IO's `io.use`,
 * Bun's `server.upgrade(req, { data })`): its check reads the upgrade request and either
 * admits the connection with the client data it starts with (`admit({ user })`) or refuses it
 * with a response (`unauthorized('bad token')`). Other requests pass through untouched.
 * Pure and portable: no node:* imports.
 */
import type { HttpRequest, Response } from '../http/types.js'
import type { HttpContext } from './http-context.js'
import type { HttpMiddleware } from './http-middleware.js'

/** An admitted upgrade and the client data its connection starts with. */
export interface Admitted<Data extends object> {
  readonly _tag: 'Admitted'
  readonly data: Data
}

/**
 * Admits an upgrade with `data` (each key becomes a key of the client's data).
 *
 * @example
 * admit({ user: 'ada', role: 'admin' }).data.user // 'ada'
 */
export const admit = <Data extends object = Record<string, never>>(data: Data = {} as Data): Admitted<Data> => ({ _tag: 'Admitted', data })

/** What an upgrade check answers: admitted with data, or a refusal to send instead of the 101. */
export type UpgradeCheck<Data extends object> = (request: HttpRequest, ctx: HttpContext) => Admitted<Data> | Response | Promise<Admitted<Data> | Response>

/**
 * The middleware of `check`. On an upgrade request (`ctx.handshake` present) an admission
 * stores its data as the client's and goes on (`next()`); a response is the refusal (the
 * twinport client reads a 4xx refusal as close code `4000 + status`: docs/protocol.md,
 * "Refused upgrades"). Any other request goes on untouched.
 *
 * @example
 * interface Identity { readonly user: string }
 * const auth = upgradeMiddleware<Identity>((req) =>
 *   parseQuery(req.rawQuery)['token'] === 'secret' ? admit({ user: 'ada' }) : unauthorized('bad token'))
 * // runServer({ routes, httpMiddleware: [auth] }); then in a handler: ctx.getClientData('user') // 'ada'
 */
export const upgradeMiddleware = <Data extends object>(check: UpgradeCheck<Data>): HttpMiddleware => {
  const middleware: HttpMiddleware = async (request, next, ctx) => {
    const handshake = ctx.handshake
    if (handshake === undefined) return next()
    const verdict = await check(request, ctx)
    if (verdict._tag === 'Response') return verdict
    for (const [key, value] of Object.entries(verdict.data)) handshake.setClientData(key, value)
    return next()
  }
  // The server also runs the check on an event stream about to open (the other way a request
  // becomes a client): a stream's request is a plain GET, so the middleware itself cannot tell.
  return Object.assign(middleware, { upgradeCheck: check as UpgradeCheck<object> })
}

/**
 * The checks of the `upgradeMiddleware`s in `middleware`, in order: what the server runs on an
 * event stream before it opens, as the middleware runs them on a WebSocket upgrade.
 *
 * @example
 * upgradeChecksOf([logRequests, upgradeMiddleware(check)]) // [check]
 */
export const upgradeChecksOf = (middleware: readonly HttpMiddleware[]): readonly UpgradeCheck<object>[] =>
  middleware.flatMap((m) => {
    const check = (m as HttpMiddleware & { readonly upgradeCheck?: UpgradeCheck<object> }).upgradeCheck
    return check === undefined ? [] : [check]
  })

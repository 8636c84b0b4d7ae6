/**
 * `guardEventStreams`: the `upgradeGuard` routes of a compiled table, and the checks of the
 * server's `upgradeMiddleware`s, applied to the other way a client becomes a connection: an
 * event stream (`sseRoute`, or any route answering `eventStream(...)`). Without it a guard (or
 * an authenticating upgrade middleware) that protects `/live` from WebSocket upgrades would
 * leave `GET /live` with `Accept: text/event-stream` open. The server runs it on an answer that
 * opens an event stream, before the stream's head is written (a refusal is an ordinary HTTP
 * 401/403, no stream). Pure and portable: no node:* imports.
 */
import { internalError } from './settle-answer.js'
import type { HttpRequest, Response } from '../http/types.js'
import type { Handshake } from './handshake.js'
import type { HttpContext } from './http-context.js'
import type { UpgradeGuardRoute } from './route.js'
import type { UpgradeCheck } from './upgrade-middleware.js'
import { guardPath } from './upgrade-guard.js'

/**
 * Decides an event-stream answer to `request`: the answer itself when it may open, or the
 * refusal to send instead. `ctx.handshake`, when the server gives one, is where the admissions'
 * client data go (the stream's client starts with it, as an admitted upgrade's does).
 */
export type EventStreamGuard = (request: HttpRequest, answer: Response, ctx: HttpContext) => Response | Promise<Response>

// The admissions' data, kept apart until every guard of the path admitted (a refused stream
// leaves its connection's data as it was); a later guard reads what an earlier one stored.
const staged = (outer: Handshake | undefined): Handshake & { commit(): void } => {
  const data = new Map<string, unknown>()
  return {
    setClientData: (key, value) => void data.set(key, value),
    getClientData: (key) => {
      if (key === undefined) return { ...(outer?.getClientData() as Record<string, unknown> | undefined), ...Object.fromEntries(data) }
      return data.has(key) ? data.get(key) : outer?.getClientData(key)
    },
    commit: () => {
      if (outer !== undefined) for (const [key, value] of data) outer.setClientData(key, value)
    },
  }
}

/**
 * The guard of `guards` (by path, as `compileRoutes` keeps them) and of `checks` (the
 * `upgradeMiddleware` checks of the server's HTTP middleware, for every path: `upgradeChecksOf`),
 * or `undefined` when there are none. The checks run first, in order, then every guard of the
 * request's path (trailing slash ignored) in table order, with the request and the server's
 * context; the first refusal wins; a check that throws refuses with 500 (reported to
 * `onError`). An answer that nothing decides is given back as it is, at once.
 *
 * @example
 * const guard = guardEventStreams(compiled.guards, onHttpError, upgradeChecksOf(httpMiddleware))
 * const answer = guard === undefined ? streamAnswer : await guard(request, streamAnswer, ctx)
 */
export const guardEventStreams = (
  guards: ReadonlyMap<string, readonly UpgradeGuardRoute[]>,
  onError?: (error: unknown, request: HttpRequest) => void,
  checks: readonly UpgradeCheck<object>[] = [],
): EventStreamGuard | undefined => {
  if (guards.size === 0 && checks.length === 0) return undefined
  const decide = async (mine: readonly UpgradeCheck<object>[], request: HttpRequest, answer: Response, ctx: HttpContext): Promise<Response> => {
    const handshake = staged(ctx.handshake)
    const seen: HttpContext = { ...ctx, handshake }
    try {
      for (const check of mine) {
        const verdict = await check(request, seen)
        if (verdict._tag === 'Response') return verdict
        for (const [key, value] of Object.entries(verdict.data)) handshake.setClientData(key, value)
      }
    } catch (error) {
      onError?.(error, request)
      return internalError()
    }
    handshake.commit()
    return answer
  }
  return (request, answer, ctx) => {
    const mine = guards.get(guardPath(request.path))
    if (mine === undefined) return checks.length === 0 ? answer : decide(checks, request, answer, ctx)
    return decide([...checks, ...mine.map((guard) => guard.check)], request, answer, ctx)
  }
}

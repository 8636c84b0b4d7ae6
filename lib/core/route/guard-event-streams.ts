/**
 * `guardEventStreams`: the `upgradeGuard` routes of a compiled table applied to the other way a
 * client becomes a connection of a path: an event stream (`sseRoute`, or any route answering
 * `eventStream(...)`). Without it a guard that protects `/live` from WebSocket upgrades would
 * leave `GET /live` with `Accept: text/event-stream` open. The server runs it on an answer that
 * opens an event stream, before the stream's head is written (a refusal is an ordinary HTTP
 * 401/403, no stream). Pure and portable: no node:* imports.
 */
import { errorResponse } from '../http/response.js'
import type { HttpRequest, Response } from '../http/types.js'
import type { Handshake } from './handshake.js'
import type { HttpContext } from './http-context.js'
import type { UpgradeGuardRoute } from './route.js'
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
 * The guard of `guards` (by path, as `compileRoutes` keeps them), or `undefined` when there are
 * none. Every guard of the request's path (trailing slash ignored) runs in table order with the
 * request and the server's context; the first refusal wins; a guard that throws refuses with 500
 * (reported to `onError`). An answer to a path without guards is given back as it is, at once.
 *
 * @example
 * const guard = guardEventStreams(compiled.guards, onHttpError)
 * const answer = guard === undefined ? streamAnswer : await guard(request, streamAnswer, ctx)
 */
export const guardEventStreams = (
  guards: ReadonlyMap<string, readonly UpgradeGuardRoute[]>,
  onError?: (error: unknown, request: HttpRequest) => void,
): EventStreamGuard | undefined => {
  if (guards.size === 0) return undefined
  const decide = async (mine: readonly UpgradeGuardRoute[], request: HttpRequest, answer: Response, ctx: HttpContext): Promise<Response> => {
    const handshake = staged(ctx.handshake)
    const seen: HttpContext = { ...ctx, handshake }
    try {
      for (const guard of mine) {
        const verdict = await guard.check(request, seen)
        if (verdict._tag === 'Response') return verdict
        for (const [key, value] of Object.entries(verdict.data)) handshake.setClientData(key, value)
      }
    } catch (error) {
      onError?.(error, request)
      return errorResponse(500, 'Internal Server Error')
    }
    handshake.commit()
    return answer
  }
  return (request, answer, ctx) => {
    const mine = guards.get(guardPath(request.path))
    return mine === undefined ? answer : decide(mine, request, answer, ctx)
  }
}

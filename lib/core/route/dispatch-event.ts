/**
 * `dispatchEvent`: one enveloped event to its `socketOn` handler through the WebSocket
 * middleware, as an outcome the server sends (DESIGN §3). Never rejects: a thrown error
 * or rejected promise becomes `handler_error` and goes to the error hook.
 * Pure and portable: no node:* imports, no timers.
 */
import * as E from 'fp-ts/lib/Either.js'
import { composeWs } from './compose-ws.js'
import type { WsMiddleware } from './ws-middleware.js'
import type { EventError, EventErrorCode, EventMessage } from '../ws/event.js'
import type { CompiledRoutes } from './compiled-routes.js'
import { ack, type EventOutcome, failed, noReply } from './event-outcome.js'
import type { SocketContext } from './socket-context.js'
import { decodeSchema } from './decode-schema.js'
import { RateLimited } from '../limit/rate-limited.js'
import { guardReporter, ignoreErrors, type WsErrorReporter } from './ws-error-reporter.js'

export interface EventDispatchOptions {
  /** Runs around every event, first element outermost. */
  readonly middleware?: readonly WsMiddleware[]
  /** Told about every thrown error or rejection, with its site. */
  readonly onError?: WsErrorReporter
}

const errorOf = (message: EventMessage, code: EventErrorCode, text: string, details?: unknown): EventError => ({
  code,
  message: text,
  ...(message.id === undefined ? {} : { id: message.id }),
  ...(details === undefined ? {} : { details }),
})

// The handler's side: finds the route, validates the data, runs the handler. Never rejects.
// Module level, so a dispatch without middleware makes no closures of its own.
const runTarget = async (compiled: CompiledRoutes, onError: WsErrorReporter | undefined, current: EventMessage, context: SocketContext): Promise<EventOutcome> => {
  const route = compiled.events.get(current.event)
  if (route === undefined) return failed(errorOf(current, 'unknown_event', `no handler for event "${current.event}"`))
  try {
    let data = current.data
    if (route.codec !== undefined) {
      const checked = decodeSchema(route.codec, current.data)
      const decoded = checked instanceof Promise ? await checked : checked
      if (E.isLeft(decoded)) {
        const details = decoded.left
        const where = details.map((d) => `${d.path === '' ? '(root)' : d.path}: expected ${d.expected}`).join('; ')
        return failed(errorOf(current, 'invalid_payload', `invalid data for "${current.event}": ${where}`, details))
      }
      data = decoded.right
    }
    const value: unknown = await route.handler(data, context)
    return current.id === undefined ? noReply : ack(current.id, value)
  } catch (error) {
    return handlerError(onError, current, context, error)
  }
}

const handlerError = (onError: WsErrorReporter | undefined, current: EventMessage, ctx: SocketContext, error: unknown): EventOutcome => {
  // A refused rate-limit check (`rateLimit`): the client's answer, not a handler failure.
  if (error instanceof RateLimited) {
    return failed(errorOf(current, 'rate_limited', `rate limit of "${current.event}" exceeded`, { retryAfterMs: error.retryAfterMs }))
  }
  guardReporter(onError ?? ignoreErrors)(error, { phase: 'event', clientId: ctx.clientId, event: current.event })
  return failed(errorOf(current, 'handler_error', `the handler of "${current.event}" failed`))
}

/**
 * Finds the handler of `message.event`, validates the data with its codec, runs it, and
 * answers `Ack` (the request had an id), `NoReply`, or `Failed` with `unknown_event`,
 * `invalid_payload` (details: `{ path, expected }[]`), `rate_limited` (details:
 * `{ retryAfterMs }`, from a `rateLimit` route) or `handler_error`.
 *
 * @example
 * const outcome = await dispatchEvent(compiled, { event: 'join', data: { room: 'a' }, id: 1 }, ctx, { onError })
 */
export const dispatchEvent = (
  compiled: CompiledRoutes,
  message: EventMessage,
  ctx: SocketContext,
  options: EventDispatchOptions = {},
): Promise<EventOutcome> => {
  const { middleware, onError } = options
  // Without middleware the target is the whole run (one promise, not three).
  if (middleware === undefined || middleware.length === 0) return runTarget(compiled, onError, message, ctx)
  return composeWs(middleware)(message, ctx, (current, context) => runTarget(compiled, onError, current, context)).catch((error: unknown) =>
    handlerError(onError, message, ctx, error),
  )
}

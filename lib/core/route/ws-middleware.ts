/**
 * The WebSocket middleware signature (the seed leaves it open, §4.1). Types only.
 * Pure and portable: no node:* imports.
 */
import type { EventOutcome } from './event-outcome.js'
import type { SocketContext } from './socket-context.js'
import type { EventMessage } from '../ws/event.js'
import type { Next } from '../middleware/compose.js'

/**
 * `(message, next, ctx) => outcome`. Runs around the dispatch of every event (unknown
 * ones included). To go on: `return next()`, or `next({ ...message, data })` to change
 * what the rest sees. To answer early: return `failed(...)`, `ack(...)` or `noReply`
 * without calling `next`. Throwing or rejecting gives `handler_error`.
 *
 * @example
 * const requireLogin: WsMiddleware = (message, next, ctx) =>
 *   ctx.getClientData('user') === undefined
 *     ? failed({ code: 'handler_error', message: 'log in first', ...(message.id === undefined ? {} : { id: message.id }) })
 *     : next()
 */
export type WsMiddleware = (
  message: EventMessage,
  next: Next<EventMessage, EventOutcome>,
  ctx: SocketContext,
) => EventOutcome | Promise<EventOutcome>

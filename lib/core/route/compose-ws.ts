/** `composeWs`: a WebSocket middleware stack around an event target. Pure and portable. */
import type { EventOutcome } from './event-outcome.js'
import type { SocketContext } from './socket-context.js'
import type { EventMessage } from '../ws/event.js'
import { compose } from '../middleware/compose.js'
import type { WsMiddleware } from './ws-middleware.js'

/** The composed stack: the event, the client's context and the innermost target. */
export type WsStack = (
  message: EventMessage,
  ctx: SocketContext,
  target: (message: EventMessage, ctx: SocketContext) => EventOutcome | Promise<EventOutcome>,
) => Promise<EventOutcome>

/**
 * Composes in onion order: `stack[0]` sees the event first and the outcome last.
 *
 * @example
 * const run = composeWs([logEvents, requireLogin])
 * const outcome = await run(message, ctx, (m, c) => handle(m, c))
 */
export const composeWs = (stack: readonly WsMiddleware[]): WsStack => compose(stack)

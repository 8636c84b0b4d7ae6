/** `onDisconnect`: a handler run when a WebSocket client has gone (seed §2.6, §6). Pure and portable. */
import type { LifecycleHandler, OnDisconnectRoute } from './route.js'

/**
 * Runs `handler` after a WebSocket client has disconnected; every such route runs, in table order.
 *
 * @example
 * const bye = onDisconnect((ctx) => ctx.broadcast('left', { id: ctx.clientId }))
 */
export const onDisconnect = (handler: LifecycleHandler): OnDisconnectRoute => ({ _tag: 'OnDisconnect', handler })

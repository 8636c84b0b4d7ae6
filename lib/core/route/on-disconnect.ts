/** `onDisconnect`: a handler run when a WebSocket client has gone (seed §2.6, §6). Pure and portable. */
import type { AnyClientData } from './client-data.js'
import type { LifecycleHandler, OnDisconnectRoute } from './route.js'

/**
 * Runs `handler` after a WebSocket client has disconnected; every such route runs, in table order.
 *
 * @example
 * const bye = onDisconnect((ctx) => ctx.broadcast('left', { id: ctx.clientId }))
 */
export function onDisconnect<Data extends object = AnyClientData>(handler: LifecycleHandler<Data>): OnDisconnectRoute
// A context typed with the application's client data is the application's promise (see `socketOn`).
export function onDisconnect(handler: LifecycleHandler): OnDisconnectRoute {
  return { _tag: 'OnDisconnect', handler }
}

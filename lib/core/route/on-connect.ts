/** `onConnect`: a handler run for every new WebSocket client (seed §2.6, §6). Pure and portable. */
import type { AnyClientData } from './client-data.js'
import type { LifecycleHandler, OnConnectRoute } from './route.js'

/**
 * Runs `handler` when a WebSocket client has connected; every such route runs, in table order.
 *
 * @example
 * const greet = onConnect((ctx) => ctx.emit('welcome', { id: ctx.clientId }))
 */
export function onConnect<Data extends object = AnyClientData>(handler: LifecycleHandler<Data>): OnConnectRoute
// A context typed with the application's client data is the application's promise (see `socketOn`).
export function onConnect(handler: LifecycleHandler): OnConnectRoute {
  return { _tag: 'OnConnect', handler }
}

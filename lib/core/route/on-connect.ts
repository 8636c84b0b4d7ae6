/** `onConnect`: a handler run for every new WebSocket client (seed §2.6, §6). Pure and portable. */
import type { LifecycleHandler, OnConnectRoute } from './route.js'

/**
 * Runs `handler` when a WebSocket client has connected; every such route runs, in table order.
 *
 * @example
 * const greet = onConnect((ctx) => ctx.emit('welcome', { id: ctx.clientId }))
 */
export const onConnect = (handler: LifecycleHandler): OnConnectRoute => ({ _tag: 'OnConnect', handler })

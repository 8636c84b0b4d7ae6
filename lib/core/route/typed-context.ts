/**
 * Typed views of `SocketContext` and `HttpContext` for an application's map of server
 * events (`interface ChatEvents { message: ChatMessage }`), the same map a typed client of
 * `twinport/client` listens with. Every context already is one of these (its `emit`, `send`
 * and `broadcast` take any name and data), so a handler just annotates its `ctx`. Types
 * only; pure and portable.
 */
import type { AnyClientData } from './client-data.js'
import type { HttpContext } from './http-context.js'
import type { BroadcastTarget, SocketContext } from './socket-context.js'

/** The event names of a map. */
type Names<Events> = keyof Events & string

/**
 * A `SocketContext` whose `emit`, `send` and `broadcast` take only the events of `Events`,
 * each with its data type, and whose client data is `Data` (see `SocketContext`).
 *
 * @example
 * const say = socketOn('say', Say, ({ room, text }, ctx: TypedSocketContext<ChatEvents>) =>
 *   ctx.broadcast('message', { room, text }, { room }))
 */
export interface TypedSocketContext<Events, Data extends object = AnyClientData> extends Omit<SocketContext<Data>, 'emit' | 'send' | 'broadcast'> {
  emit<K extends Names<Events>>(event: K, data: Events[K]): void
  send<K extends Names<Events>>(clientId: number, event: K, data: Events[K]): void
  broadcast<K extends Names<Events>>(event: K, data: Events[K], target?: BroadcastTarget): void
}

/** An `HttpContext` whose `send` and `broadcast` take only the events of `Events`. */
export interface TypedHttpContext<Events> extends Omit<HttpContext, 'send' | 'broadcast'> {
  send<K extends Names<Events>>(clientId: number, event: K, data: Events[K]): void
  broadcast<K extends Names<Events>>(event: K, data: Events[K], target?: BroadcastTarget): void
}

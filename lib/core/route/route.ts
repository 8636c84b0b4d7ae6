/**
 * Routes as values (DESIGN §2): the tagged records built by `socketOn`, `onConnect`,
 * `onDisconnect`, `onMessage` and `httpRoute`, a controller (a plain record of routes)
 * and a route table (an array). Types only. Pure and portable: no node:* imports.
 */
import type * as t from 'io-ts'
import type { Params, Request } from '../http/request.js'
import type { HttpContext } from './http-context.js'
import type { RouteParams } from './path-params.js'
import type { RawMessage } from './raw-message.js'
import type { SocketContext } from './socket-context.js'

/** An event handler: its return value (or what its promise resolves to) is the ack. */
export type EventHandler<A> = (data: A, ctx: SocketContext) => unknown

/** A connect or disconnect handler; its return value is ignored (a promise is awaited). */
export type LifecycleHandler = (ctx: SocketContext) => unknown

/** What a raw handler may answer: a message, text, bytes, or nothing. */
export type RawReply = RawMessage | string | Uint8Array | undefined | void

/** A raw message handler; a returned value is sent back to the same client. */
export type RawHandler = (message: RawMessage, ctx: SocketContext) => RawReply | Promise<RawReply>

/**
 * An HTTP handler: returns a `Response`, a plain value (sent with `json`), or a promise of
 * either. `ctx` gives the server operations (broadcast to WebSocket clients and so on).
 */
export type HttpHandler<P extends Params> = (req: Request<P>, ctx: HttpContext) => unknown

/** `socketOn(event, ...)`: handles the named event. */
export interface SocketOnRoute {
  readonly _tag: 'SocketOn'
  readonly event: string
  /** Validates `data` before the handler sees it; absent when the data is passed as is. */
  readonly codec: t.Decoder<unknown, unknown> | undefined
  /** Receives the data as decoded by `codec` (or untouched without one). */
  readonly handler: EventHandler<unknown>
}

/** `onConnect(handler)`: runs when a WebSocket client has connected. */
export interface OnConnectRoute {
  readonly _tag: 'OnConnect'
  readonly handler: LifecycleHandler
}

/** `onDisconnect(handler)`: runs when a WebSocket client has gone. */
export interface OnDisconnectRoute {
  readonly _tag: 'OnDisconnect'
  readonly handler: LifecycleHandler
}

/** `onMessage(handler)`: receives every data message without the event envelope. */
export interface OnMessageRoute {
  readonly _tag: 'OnMessage'
  readonly handler: RawHandler
}

/** `httpRoute(method, path, handler)`. */
export interface HttpRoute {
  readonly _tag: 'HttpRoute'
  /** Upper-case method token, e.g. `GET`. */
  readonly method: string
  /** The path pattern with `{name}` params, e.g. `/users/{id}`. */
  readonly path: string
  readonly handler: HttpHandler<RouteParams>
}

/** Any route. */
export type Route = SocketOnRoute | OnConnectRoute | OnDisconnectRoute | OnMessageRoute | HttpRoute

/** A route table: plain data you can concatenate, filter, mount and inspect. */
export type RouteTable = readonly Route[]

/** A controller: a plain record of routes, keyed by whatever names the application likes. */
export type Controller = { readonly [name: string]: Route }

/** What `routes(...)` accepts: routes, tables and controllers, nested at will. */
export type RouteSource = Route | Controller | readonly RouteSource[]

const TAGS: ReadonlySet<string> = new Set(['SocketOn', 'OnConnect', 'OnDisconnect', 'OnMessage', 'HttpRoute'])

/** Whether a value is one of the route records (and not a controller or a table). */
export const isRoute = (value: unknown): value is Route =>
  typeof value === 'object' && value !== null && '_tag' in value && typeof value._tag === 'string' && TAGS.has(value._tag)

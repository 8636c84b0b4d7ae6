/**
 * Routes as values (DESIGN §2): the tagged records built by `socketOn`, `onConnect`,
 * `onDisconnect`, `onMessage`, `httpRoute` and `upgradeGuard`, a controller (a plain record of routes)
 * and a route table (an array). Types only. Pure and portable: no node:* imports.
 */
import type { DecompressOption } from '../http/decompress/plan-decoding.js'
import type { Params, Request, StreamRequest } from '../http/request.js'
import type { HttpContext } from './http-context.js'
import type { UpgradeCheck } from './upgrade-middleware.js'
import type { AnyClientData } from './client-data.js'
import type { BodyType, DeclaredResponses, HttpInputSchemas } from './http-input.js'
import type { RouteParams } from './path-params.js'
import type { RawMessage } from './raw-message.js'
import type { Schema } from './schema.js'
import type { SocketContext } from './socket-context.js'

/**
 * An event handler: its return value (or what its promise resolves to) is the ack. `R` is
 * that return type, kept so a typed client can tell what a request resolves to; `Data` the
 * client data its context reads and writes (see `SocketContext`).
 */
export type EventHandler<A, R = unknown, Data extends object = AnyClientData> = (data: A, ctx: SocketContext<Data>) => R

/** A connect or disconnect handler; its return value is ignored (a promise is awaited). */
export type LifecycleHandler<Data extends object = AnyClientData> = (ctx: SocketContext<Data>) => unknown

/** What a raw handler may answer: a message, text, bytes, or nothing. */
export type RawReply = RawMessage | string | Uint8Array | undefined | void

/** A raw message handler; a returned value is sent back to the same client. */
export type RawHandler<Data extends object = AnyClientData> = (message: RawMessage, ctx: SocketContext<Data>) => RawReply | Promise<RawReply>

/**
 * An HTTP handler: returns a `Response`, a plain value (sent with `json`), or a promise of
 * either. `ctx` gives the server operations (broadcast to WebSocket clients and so on).
 * `R` is the return type, kept for the typed HTTP client.
 */
export type HttpHandler<P extends Params, R = unknown> = (req: Request<P>, ctx: HttpContext) => R

/** The handler of a route declared with `{ body: 'stream' }`: `req.body` is read as it arrives. */
export type StreamHttpHandler<P extends Params, R = unknown> = (req: StreamRequest<P>, ctx: HttpContext) => R

/** How an HTTP route takes its request body. */
export interface HttpRouteOptions {
  /**
   * `'buffer'` (the default): the middleware and the router run on the head, then the body
   * is read whole (`Expect: 100-continue` answered first) and the handler gets it.
   * `'stream'`: the middleware and the handler run on the head, and `req.body` is a
   * `BodyStream` read as it arrives (`Expect: 100-continue` is answered when it is first read).
   */
  readonly body?: 'buffer' | 'stream'
  /** Most body bytes this route takes (413 past it); the server's `limits.maxBody` when absent. */
  readonly maxBody?: number
  /**
   * Request bodies in a content coding (`Content-Encoding: gzip`, RFC 9110 §8.4): `true`
   * decodes every coding the runtime has (`gzip`, `deflate`, `br`, and `zstd` where its zlib
   * has it), a list only those; the handler gets the decoded bytes (whole, or as a stream for
   * `{ body: 'stream' }`), and `maxBody` holds for the decoded size (413 as it is crossed).
   * `'raw'` hands an encoded body over as sent. Absent: an encoded body is refused with 415
   * and an `Accept-Encoding: identity` header.
   */
  readonly decompress?: DecompressOption
  /**
   * The answers the route gives, by status: the schema of each one's JSON body. Documented by
   * `openApi`; checked only where the table goes through `checkResponses` (development).
   */
  readonly responses?: DeclaredResponses
}

/**
 * `socketOn(event, ...)`: handles the named event. The type parameters are for typed
 * clients only (`twinport/client`): the event name as a literal, the data type of the codec
 * (`unknown` without one) and the handler's return type. At run time every route is the
 * same record; `SocketOnRoute` alone (all defaults) is any such route.
 */
export interface SocketOnRoute<Name extends string = string, Data = unknown, Result = unknown> {
  readonly _tag: 'SocketOn'
  readonly event: Name
  /** Validates `data` before the handler sees it (io-ts or Standard Schema); absent when the data is passed as is. */
  readonly codec: Schema<Data> | undefined
  /** Receives the data as decoded by `codec` (or untouched without one). */
  readonly handler: EventHandler<unknown, Result>
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

/**
 * `httpRoute(method, path, handler)`. The type parameters are for the typed HTTP client
 * only: the method and path as literals, the handler's return type, the JSON body a
 * client sends (see `declareBody`) and the declared `responses`. `HttpRoute` alone (all
 * defaults) is any HTTP route.
 */
export interface HttpRoute<Method extends string = string, Path extends string = string, Result = unknown, Body = unknown, Answers = unknown> {
  readonly _tag: 'HttpRoute'
  /** Upper-case method token, e.g. `GET`. */
  readonly method: Method
  /** The path pattern with `{name}` params, e.g. `/users/{id}`. */
  readonly path: Path
  readonly handler: HttpHandler<RouteParams, Result>
  /** `'stream'` when the handler reads the body as it arrives (see {@link HttpRouteOptions}). */
  readonly body?: 'buffer' | 'stream'
  /** The route's own body limit, when it has one. */
  readonly maxBody?: number
  /** How the route takes a body in a content coding (see {@link HttpRouteOptions}); absent: 415. */
  readonly decompress?: DecompressOption
  /** The schemas of the route's inputs, when it declared some (its handler checks them first). */
  readonly input?: HttpInputSchemas
  /** The body media types a route with a body schema takes. */
  readonly bodyTypes?: readonly BodyType[]
  /** The answers the route declared (status → schema of the JSON body). */
  readonly responses?: DeclaredResponses
  /** Type-level only, never set at run time: the JSON body clients send (`declareBody`). */
  readonly '~body'?: Body
  /** Type-level only, never set at run time: the declared `responses`, status → schema, as given. */
  readonly '~responses'?: Answers
}

/**
 * `upgradeGuard(path, check)`: decides the WebSocket upgrades to one path, before the 101,
 * after the server's own HTTP middleware let them through.
 */
export interface UpgradeGuardRoute {
  readonly _tag: 'UpgradeGuard'
  /** The exact path of the upgrades it decides (still percent-encoded, no query), e.g. `/admin/ws`. */
  readonly path: string
  /** Admits (with the client data the connection starts with) or answers the refusal. */
  readonly check: UpgradeCheck<object>
}

/** Any route. */
export type Route = SocketOnRoute | OnConnectRoute | OnDisconnectRoute | OnMessageRoute | HttpRoute | UpgradeGuardRoute

/** A route table: plain data you can concatenate, filter, mount and inspect. */
export type RouteTable = readonly Route[]

/** A controller: a plain record of routes, keyed by whatever names the application likes. */
export type Controller = { readonly [name: string]: Route }

/** What `routes(...)` accepts: routes, tables and controllers, nested at will. */
export type RouteSource = Route | Controller | readonly RouteSource[]

/**
 * Every route a source holds, as one union type: what `routes(...)` keeps of its arguments
 * so that `typeof table` still names each route's event, codec and return type.
 *
 * @example
 * type R = RoutesOf<[SocketOnRoute<'a'>, { b: HttpRoute<'GET', '/b'> }]> // SocketOnRoute<'a'> | HttpRoute<'GET', '/b'>
 */
export type RoutesOf<S> = S extends Route
  ? S
  : S extends readonly (infer X)[]
    ? RouteSource extends X
      ? Route
      : RoutesOf<X>
    : S extends Controller
      ? S[keyof S]
      : never

const TAGS: ReadonlySet<string> = new Set(['SocketOn', 'OnConnect', 'OnDisconnect', 'OnMessage', 'HttpRoute', 'UpgradeGuard'])

/** Whether a value is one of the route records (and not a controller or a table). */
export const isRoute = (value: unknown): value is Route =>
  typeof value === 'object' && value !== null && '_tag' in value && typeof value._tag === 'string' && TAGS.has(value._tag)

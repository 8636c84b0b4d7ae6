/**
 * What a typed client reads from the server's route table: the event names a client may
 * send, the data each one takes (its codec's type) and what a request resolves to (its
 * handler's return type), plus the map of events the server sends. Types only.
 *
 * Imports types only, so nothing of the core (nor fp-ts or io-ts) reaches a browser bundle.
 */
import type { RoutesOf, SocketOnRoute } from '../core/route/route.js'

/**
 * The events the server sends to clients, by name: a plain interface the application
 * declares once and both sides import (`interface ChatEvents { message: ChatMessage }`).
 * The default allows any name with data of unknown type.
 */
export type EventMap = { readonly [event: string]: unknown }

/** The `socketOn` routes of an application's route table. */
export type SocketRoutes<App> = Extract<RoutesOf<App>, { readonly _tag: 'SocketOn' }>

/** The event names a client of `App` may send. */
export type EventName<App> = SocketRoutes<App>['event']

// The socketOn routes keyed by event: built once per application, so each call's lookup is one
// indexed access, not a pass over every route.
type RoutesByEvent<App> = { [R in SocketRoutes<App> as R['event']]: R }

// The route of event `K` (a route whose event is typed `string` answers for any name no
// literal route has), by direct indexed access (see api-types.ts's RouteAt).
type RouteOf<App, K extends string> =
  K extends keyof RoutesByEvent<App> ? RoutesByEvent<App>[K] : string extends keyof RoutesByEvent<App> ? RoutesByEvent<App>[string] : never

/** The data the route `K` of `App` takes: its codec's type, `unknown` without a codec. */
export type EventData<App, K extends string> =
  RouteOf<App, K> extends infer R ? (R extends SocketOnRoute<string, infer D, unknown> ? D : never) : never

// `0 extends 1 & T` holds only for `any`.
type IsAny<T> = 0 extends 1 & T ? true : false

/**
 * What an ack carries for a handler that returns `R`: the resolved value, `void` for a
 * handler that returns nothing, and `null` where the value may be `undefined` (the wire has no
 * `undefined`: it is sent as `null`).
 */
export type AckData<R> =
  IsAny<R> extends true
    ? unknown
    : Awaited<R> extends infer V
      ? [V] extends [void]
        ? void
        : Exclude<V, undefined | void> | (undefined extends V ? null : never)
      : never

/** What `request(K, ...)` resolves to for an `App`. */
export type EventResult<App, K extends string> = AckData<
  RouteOf<App, K> extends infer R ? (R extends SocketOnRoute<string, unknown, infer Res> ? Res : never) : never
>

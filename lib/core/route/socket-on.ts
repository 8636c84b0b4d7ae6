/**
 * `socketOn`: the route of a named WebSocket event, with or without a schema: an io-ts codec
 * or any Standard Schema (seed §2.6 `SocketOn`). Pure and portable: no node:* imports.
 */
import type { AnyClientData } from './client-data.js'
import type { EventHandler, SocketOnRoute } from './route.js'
import type { Schema, SchemaOutput } from './schema.js'

/**
 * Handles the event `event`. With a codec (io-ts, or a Standard Schema of Zod, Valibot,
 * ArkType, …), `data` is validated first and the handler gets
 * the decoded value; a mismatch answers `invalid_payload` with the failing paths. The route's
 * type keeps the event name, the codec's type and the handler's return type, for
 * `twinport/client`.
 *
 * @example
 * const hello = socketOn('hello', (data, ctx) => ctx.emit('hi', data))
 * const join = socketOn('join', t.type({ room: t.string }), ({ room }, ctx) => ctx.joinRoom(room))
 * const move = socketOn('move', z.object({ x: z.number() }), ({ x }) => x * 2)
 */
export function socketOn<Name extends string, R, Data extends object = AnyClientData>(
  event: Name,
  handler: EventHandler<unknown, R, Data>,
): SocketOnRoute<Name, unknown, R>
export function socketOn<Name extends string, S extends Schema, R, Data extends object = AnyClientData>(
  event: Name,
  codec: S,
  handler: EventHandler<SchemaOutput<S>, R, Data>,
): SocketOnRoute<Name, SchemaOutput<S>, R>
export function socketOn<A>(
  event: string,
  codecOrHandler: Schema<A> | EventHandler<unknown>,
  maybeHandler?: EventHandler<A>,
): SocketOnRoute {
  // A handler typed with the application's client data (`SocketContext<Session>`) is the
  // application's promise about what its contexts hold, as `clientDataOf` is; at run time
  // every context is the same record.
  if (typeof codecOrHandler === 'function') return { _tag: 'SocketOn', event, codec: undefined, handler: codecOrHandler }
  const handler = maybeHandler as EventHandler<A>
  // Dispatch only calls the handler with what `codec` produced, so the value is an A.
  return { _tag: 'SocketOn', event, codec: codecOrHandler, handler: (data, ctx) => handler(data as A, ctx) }
}

/**
 * `socketOn`: the route of a named WebSocket event, with or without an io-ts codec
 * (seed §2.6 `SocketOn`). Pure and portable: no node:* imports.
 */
import type * as t from 'io-ts'
import type { EventHandler, SocketOnRoute } from './route.js'

/**
 * Handles the event `event`. With a codec, `data` is validated first and the handler gets
 * the decoded value; a mismatch answers `invalid_payload` with the failing paths. The route's
 * type keeps the event name, the codec's type and the handler's return type, for
 * `twinport/client`.
 *
 * @example
 * const hello = socketOn('hello', (data, ctx) => ctx.emit('hi', data))
 * const join = socketOn('join', t.type({ room: t.string }), ({ room }, ctx) => ctx.joinRoom(room))
 */
export function socketOn<Name extends string, R>(event: Name, handler: EventHandler<unknown, R>): SocketOnRoute<Name, unknown, R>
export function socketOn<Name extends string, A, R>(
  event: Name,
  codec: t.Decoder<unknown, A>,
  handler: EventHandler<A, R>,
): SocketOnRoute<Name, A, R>
export function socketOn<A>(
  event: string,
  codecOrHandler: t.Decoder<unknown, A> | EventHandler<unknown>,
  maybeHandler?: EventHandler<A>,
): SocketOnRoute {
  if (typeof codecOrHandler === 'function') return { _tag: 'SocketOn', event, codec: undefined, handler: codecOrHandler }
  const handler = maybeHandler as EventHandler<A>
  // Dispatch only calls the handler with what `codec` produced, so the value is an A.
  return { _tag: 'SocketOn', event, codec: codecOrHandler, handler: (data, ctx) => handler(data as A, ctx) }
}

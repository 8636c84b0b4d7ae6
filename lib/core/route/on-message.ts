/**
 * `onMessage`: the raw-message route (DESIGN §3). Where a table has one, every text and
 * binary message goes to it and no envelope is parsed. Pure and portable.
 */
import type { AnyClientData } from './client-data.js'
import type { OnMessageRoute, RawHandler } from './route.js'

/**
 * Receives every data message as is; a returned message, string or byte array is sent back.
 *
 * @example
 * const echo = onMessage((message) => message)
 */
export function onMessage<Data extends object = AnyClientData>(handler: RawHandler<Data>): OnMessageRoute
// A context typed with the application's client data is the application's promise (see `socketOn`).
export function onMessage(handler: RawHandler): OnMessageRoute {
  return { _tag: 'OnMessage', handler }
}

/**
 * `onMessage`: the raw-message route (DESIGN §3). Where a table has one, every text and
 * binary message goes to it and no envelope is parsed. Pure and portable.
 */
import type { OnMessageRoute, RawHandler } from './route.js'

/**
 * Receives every data message as is; a returned message, string or byte array is sent back.
 *
 * @example
 * const echo = onMessage((message) => message)
 */
export const onMessage = (handler: RawHandler): OnMessageRoute => ({ _tag: 'OnMessage', handler })

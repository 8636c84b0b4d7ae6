/**
 * `checkedClose`: the close a server operation was asked for (`disconnectClient(id, { code,
 * reason })`), checked where it is asked: the one place the application's bad code or reason
 * becomes a `RangeError` (a programming error, like `WebSocket.close(1234)` in a browser).
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { DisconnectOptions } from '../core/route/socket-context.js'
import { type AppClose, appClose, describeAppCloseError } from '../core/ws/app-close.js'

/**
 * The checked close of `options`: `undefined` without a code (a normal close); throws a
 * `RangeError` naming what is wrong, at the call that asked for it.
 */
export const checkedClose = (options: DisconnectOptions | undefined): AppClose | undefined => {
  if (options?.code === undefined) {
    if (options?.reason !== undefined) throw new RangeError('disconnectClient: a reason needs a code (4000-4999)')
    return undefined
  }
  const checked = appClose(options.code, options.reason)
  if (E.isLeft(checked)) throw new RangeError(`disconnectClient: ${describeAppCloseError(checked.left)}`)
  return checked.right
}

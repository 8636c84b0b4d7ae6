/**
 * `appClose`: an application's close of a client (a kick, a refused upgrade) as a checked
 * value: a code of the range RFC 6455 §7.4.2 leaves to applications (4000–4999, the "stay
 * away" codes the twinport client does not retry) and a reason that fits a close frame
 * (§5.5: a control payload is at most 125 bytes, 2 of them the code, so at most 123 bytes of
 * UTF-8). Also `refusalClose`, the close a refused upgrade becomes for a client that asked
 * for it (docs/protocol.md, "Refused upgrades and kicks"). Pure and portable.
 */
import * as E from 'fp-ts/lib/Either.js'

/** A checked application close: code 4000–4999, reason at most 123 bytes of UTF-8. */
export interface AppClose {
  readonly code: number
  readonly reason: string
}

/** Why `appClose` refused: the code is not 4000–4999, or the reason is too long. */
export type AppCloseError =
  | { readonly _tag: 'CloseCodeOutOfRange'; readonly code: number }
  | { readonly _tag: 'CloseReasonTooLong'; readonly bytes: number; readonly limit: number }

/** The most UTF-8 bytes a close reason may have (RFC 6455 §5.5: 125 less the code's 2). */
export const MAX_CLOSE_REASON = 123

const encoder = new TextEncoder()

/**
 * Checks an application's close.
 *
 * @example
 * appClose(4403, 'banned') // right({ code: 4403, reason: 'banned' })
 * appClose(1000)           // left({ _tag: 'CloseCodeOutOfRange', code: 1000 })
 */
export const appClose = (code: number, reason = ''): E.Either<AppCloseError, AppClose> => {
  if (!Number.isInteger(code) || code < 4000 || code > 4999) return E.left({ _tag: 'CloseCodeOutOfRange', code })
  const bytes = encoder.encode(reason).length
  if (bytes > MAX_CLOSE_REASON) return E.left({ _tag: 'CloseReasonTooLong', bytes, limit: MAX_CLOSE_REASON })
  return E.right({ code, reason })
}

/**
 * The error as text, for the `RangeError` the server's operations throw.
 *
 * @example
 * describeAppCloseError({ _tag: 'CloseCodeOutOfRange', code: 1000 }) // 'close code 1000 is not 4000-4999'
 */
export const describeAppCloseError = (error: AppCloseError): string =>
  error._tag === 'CloseCodeOutOfRange'
    ? `close code ${error.code} is not 4000-4999`
    : `close reason is ${error.bytes} bytes of UTF-8, more than ${error.limit}`

/**
 * The close a refused upgrade (HTTP status 400–499) becomes: code `4000 + status`, the reason
 * the response's `{"error": text}` gave (else the empty string), cut to 123 bytes by the
 * close frame. `undefined` for any other status (it stays an HTTP answer).
 *
 * @example
 * refusalClose(401, 'bad token') // { code: 4401, reason: 'bad token' }
 * refusalClose(503, 'draining')  // undefined
 */
export const refusalClose = (status: number, reason: string): AppClose | undefined =>
  status >= 400 && status <= 499 ? { code: 4000 + status, reason } : undefined

/**
 * Whether an upgrade's query asks for refusals as close codes: the twinport client's
 * `tp_c=1`, or its session query `tp_v=1` (a client that speaks sessions reads them too).
 *
 * @example
 * wantsRefusalClose('tp_c=1&token=x') // true
 * wantsRefusalClose('token=x')        // false
 */
export const wantsRefusalClose = (rawQuery: string): boolean => /(?:^|&)tp_[cv]=1(?:&|$)/.test(rawQuery)

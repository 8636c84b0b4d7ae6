/**
 * `dispatchRaw`: a text or binary message without envelope to the `onMessage` route
 * (DESIGN §3). Never rejects. Pure and portable: no node:* imports.
 */
import type { CompiledRoutes } from './compiled-routes.js'
import type { RawMessage } from './raw-message.js'
import type { RawReply } from './route.js'
import type { SocketContext } from './socket-context.js'
import { guardReporter, ignoreErrors, type WsErrorReporter } from './ws-error-reporter.js'

/**
 * - `Reply`: send `message` back to the client.
 * - `NoReply`: handled, nothing to send.
 * - `NoRawRoute`: the table has no `onMessage`; a binary message then closes with 1003
 *   (RFC 6455 §7.4.1, unsupported data); a text one should be parsed as an envelope instead.
 * - `Failed`: the handler threw or rejected (already reported); the connection stays.
 */
export type RawOutcome =
  | { readonly _tag: 'Reply'; readonly message: RawMessage }
  | { readonly _tag: 'NoReply' }
  | { readonly _tag: 'NoRawRoute'; readonly closeCode: 1003 }
  | { readonly _tag: 'Failed' }

const isRawMessage = (value: object): value is RawMessage =>
  '_tag' in value && ((value._tag === 'Text' && 'text' in value) || (value._tag === 'Binary' && 'data' in value))

const toOutcome = (reply: RawReply): RawOutcome => {
  if (typeof reply === 'string') return { _tag: 'Reply', message: { _tag: 'Text', text: reply } }
  if (reply instanceof Uint8Array) return { _tag: 'Reply', message: { _tag: 'Binary', data: reply } }
  if (typeof reply === 'object' && reply !== null && isRawMessage(reply)) return { _tag: 'Reply', message: reply }
  return { _tag: 'NoReply' }
}

const NO_RAW_ROUTE: RawOutcome = Object.freeze({ _tag: 'NoRawRoute', closeCode: 1003 })
const FAILED: RawOutcome = Object.freeze({ _tag: 'Failed' })

const isThenable = (value: unknown): value is PromiseLike<RawReply> =>
  typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function'

/**
 * Runs the raw route on `message` and answers at once when the handler did (most echo and
 * relay handlers do), or with a promise when the handler returned one: a server can then
 * write a synchronous reply in the same turn as the message it answers. Never throws; a
 * returned promise never rejects.
 *
 * @example
 * const outcome = dispatchRawNow(compiled, { _tag: 'Text', text: 'hi' }, ctx, onError)
 * // { _tag: 'Reply', message: { _tag: 'Text', text: 'hi' } } for onMessage((m) => m)
 */
export const dispatchRawNow = (
  compiled: CompiledRoutes,
  message: RawMessage,
  ctx: SocketContext,
  onError: WsErrorReporter = ignoreErrors,
): RawOutcome | Promise<RawOutcome> => {
  if (compiled.raw === undefined) return NO_RAW_ROUTE
  const fail = (error: unknown): RawOutcome => {
    guardReporter(onError)(error, { phase: 'message', clientId: ctx.clientId })
    return FAILED
  }
  try {
    const reply = compiled.raw.handler(message, ctx)
    if (!isThenable(reply)) return toOutcome(reply)
    return Promise.resolve(reply).then(toOutcome, fail)
  } catch (error) {
    return fail(error)
  }
}

/**
 * Runs the raw route on `message`; what it returns (a RawMessage, a string, bytes) is the reply.
 *
 * @example
 * const outcome = await dispatchRaw(compiled, { _tag: 'Text', text: 'hi' }, ctx, onError)
 */
export const dispatchRaw = async (
  compiled: CompiledRoutes,
  message: RawMessage,
  ctx: SocketContext,
  onError: WsErrorReporter = ignoreErrors,
): Promise<RawOutcome> => dispatchRawNow(compiled, message, ctx, onError)

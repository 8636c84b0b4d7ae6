/**
 * `ClientAnswer`: what a server→client request (`ctx.requestClient`,
 * `server.requestClient`, `requestRoom`; docs/protocol.md "Server requests") settles to: the client's answer, or why
 * there is none, as a value: the promise never rejects. Types and one pure function; portable.
 */

/**
 * Why a client gave no answer:
 * - `timeout`: none within `timeoutMs`;
 * - `disconnected`: the client is not connected (no such client), or left for good before it
 *   answered (a session's drop within its window is not leaving: the answer may still come);
 * - `not_supported`: the client did not announce server requests (`tp_r=1`: an older or
 *   non-twinport client), so nothing was sent;
 * - `no_handler`: the client has no handler for the event;
 * - `handler_error`: its handler threw, or answered something JSON cannot hold;
 * - `unserializable`: the request's data is not JSON (nothing was sent).
 */
export type ClientRequestError = 'timeout' | 'disconnected' | 'not_supported' | 'no_handler' | 'handler_error' | 'unserializable'

/**
 * The reason a client's `error` answer gives (`data.error`): `no_handler`, or
 * `handler_error` for that and anything else a client may say.
 *
 * @example
 * clientFailure({ error: 'no_handler' }) // 'no_handler'
 * clientFailure('nonsense') // 'handler_error'
 */
export const clientFailure = (data: unknown): ClientRequestError =>
  (data as { readonly error?: unknown } | null | undefined)?.error === 'no_handler' ? 'no_handler' : 'handler_error'

/** One client's answer, or why there is none; `clientId` names the client asked. */
export type ClientAnswer<A = unknown> =
  | { readonly _tag: 'Answered'; readonly clientId: number; readonly data: A }
  | { readonly _tag: 'Unanswered'; readonly clientId: number; readonly error: ClientRequestError }

/** The options of a server→client request. */
export interface ClientRequestOptions {
  /** How long to wait for the answer, in ms (10,000 by default). */
  readonly timeoutMs?: number
}

/** The options of a request to a room: its namespace (`'/'` by default) beside the time-out. */
export interface RoomRequestOptions extends ClientRequestOptions {
  readonly namespace?: string
}

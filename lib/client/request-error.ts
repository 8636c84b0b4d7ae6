/**
 * Why a request (or an emit) could not complete, as a tagged union, and `RequestError`, the
 * `Error` a request's promise rejects with. Pure and portable.
 */
import type { EventId } from '../core/ws/event.js'

/**
 * Why a message could not be delivered or answered:
 * - `Timeout`: no answer within `ms`;
 * - `ServerError`: the server answered with an error event for this id (`code` is its
 *   `data.error`, e.g. `invalid_payload`; `details` the failing paths, when given);
 * - `Closed`: the client closed for good (a deliberate `close()`, a close code that is not
 *   retried, or no attempts left), with that close's code and reason;
 * - `Aborted`: the request's `AbortSignal` fired (`reason` is the signal's);
 * - `QueueFull`: not connected and the offline queue already holds `limit` messages;
 * - `Offline`: not connected and the queue is off (`queueSize: 0`);
 * - `Cleared`: removed from the queue by `clearQueue()`;
 * - `Unserializable`: `JSON.stringify` refused the data (a cycle, a BigInt).
 */
export type RequestFailure =
  | { readonly _tag: 'Timeout'; readonly ms: number }
  | { readonly _tag: 'ServerError'; readonly code: string; readonly message: string; readonly details?: unknown }
  | { readonly _tag: 'Closed'; readonly code: number; readonly reason: string }
  | { readonly _tag: 'Aborted'; readonly reason: unknown }
  | { readonly _tag: 'QueueFull'; readonly limit: number }
  | { readonly _tag: 'Offline' }
  | { readonly _tag: 'Cleared' }
  | { readonly _tag: 'Unserializable'; readonly error: unknown }

/**
 * One line for people about a failure of the event `event`: the event, the tag, and the
 * facts that matter (the time-out, the server's code and message, the close code and reason).
 * Short, for the client bundle; programs switch on `failure._tag`, never on this text.
 *
 * @example
 * describeFailure('join', { _tag: 'Timeout', ms: 500 }) // 'join: Timeout 500 ms'
 * describeFailure('join', { _tag: 'QueueFull', limit: 100 }) // 'join: QueueFull'
 */
export const describeFailure = (event: string, failure: RequestFailure): string =>
  `${event}: ${failure._tag}` +
  (failure._tag === 'Timeout'
    ? ` ${failure.ms} ms`
    : failure._tag === 'ServerError'
      ? ` ${failure.code}: ${failure.message}`
      : failure._tag === 'Closed'
        ? ` ${failure.code} ${failure.reason}`
        : '')

/**
 * What a request's promise rejects with: the event, the message id it was sent with, and the
 * `failure` (switch on `failure._tag`).
 *
 * @example
 * const err = new RequestError('join', 3, { _tag: 'Offline' })
 * err.failure._tag // 'Offline'
 */
export class RequestError extends Error {
  override readonly name = 'RequestError'
  // Declared, not parameter properties: those compile to field definitions and assignments both.
  declare readonly event: string
  declare readonly id: EventId
  declare readonly failure: RequestFailure
  constructor(event: string, id: EventId, failure: RequestFailure) {
    super(describeFailure(event, failure))
    this.event = event
    this.id = id
    this.failure = failure
  }
}

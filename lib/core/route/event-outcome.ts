/**
 * What dispatching one event gives the server to send: an ack, nothing, or an error
 * event (DESIGN §3). Pure and portable: no node:* imports.
 */
import type { EventError, EventId } from '../ws/event.js'

/**
 * - `Ack`: the request carried an `id`; send `{"event":"ack","id":id,"data":value}`.
 * - `NoReply`: handled; the request had no `id`, so the return value is not sent.
 * - `Failed`: send `{"event":"error","data":{"error":code,"message":...}}` (with the id).
 */
export type EventOutcome =
  | { readonly _tag: 'Ack'; readonly id: EventId; readonly value: unknown }
  | { readonly _tag: 'NoReply' }
  | { readonly _tag: 'Failed'; readonly error: EventError }

/** The outcome of a handled event that asked for no ack. */
export const noReply: EventOutcome = Object.freeze({ _tag: 'NoReply' })

/** An ack carrying the handler's return value. */
export const ack = (id: EventId, value: unknown): EventOutcome => ({ _tag: 'Ack', id, value })

/** An error event; `id` is copied from the request when it had one. */
export const failed = (error: EventError): EventOutcome => ({ _tag: 'Failed', error })

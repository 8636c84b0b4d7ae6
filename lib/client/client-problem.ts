/**
 * What the client reports on its `error` event: something went wrong that no promise is
 * there to reject (a malformed server message, an ack nobody waits for, a listener that
 * threw, a dropped emit, a socket error). The client stays usable after each. Pure.
 */
import type { EventId } from '../core/ws/event.js'
import type { RequestFailure } from './request-error.js'

/**
 * A problem, tagged; every variant has a `message` for people, a short fragment kept small for
 * the bundle (`not JSON`, `bad "id"`, `unknown ack 7`): match on `_tag` and read the fields,
 * never the text, which may change.
 * - `InvalidJson`: a text message that is not JSON;
 * - `InvalidMessage`: JSON, but not `{"event": "<name>", "data"?, "id"?, "seq"?}`, or a
 *   protocol message of the wrong shape;
 * - `BinaryMessage`: a binary frame where a JSON text message was expected (`size` bytes);
 * - `MessageTooBig`: a text message over the `maxMessageBytes` option (`size` in bytes of
 *   UTF-8; when it is over the limit even in UTF-16 code units, that count, a lower bound);
 * - `UnknownAck`: an ack for an id no request is waiting for (late answers to requests that
 *   already timed out or were answered are dropped silently, not reported);
 * - `ServerError`: an error event the server sent for no pending request (for an `emit`,
 *   which has no id, or for an unknown id); `message` is the server's own text;
 * - `ReservedEvent`: the server sent an event named like a lifecycle event (`open`, `close`,
 *   `reconnecting`, `reconnected`, `session`); it is not delivered;
 * - `ListenerFailed`: a listener (or another callback of yours) threw; `event` names it;
 * - `EmitDropped`: an emit was neither sent nor queued, and why;
 * - `SocketError`: the WebSocket reported an error (refused handshake, unreachable host…);
 *   a `close` follows.
 */
export type ClientProblem =
  | { readonly _tag: 'InvalidJson'; readonly message: string }
  | { readonly _tag: 'InvalidMessage'; readonly message: string }
  | { readonly _tag: 'BinaryMessage'; readonly size: number; readonly message: string }
  | { readonly _tag: 'MessageTooBig'; readonly size: number; readonly limit: number; readonly message: string }
  | { readonly _tag: 'UnknownAck'; readonly id: EventId; readonly message: string }
  | {
      readonly _tag: 'ServerError'
      readonly code: string
      readonly id?: EventId
      readonly details?: unknown
      readonly message: string
    }
  | { readonly _tag: 'ReservedEvent'; readonly event: string; readonly message: string }
  | { readonly _tag: 'ListenerFailed'; readonly event: string; readonly error: unknown; readonly message: string }
  | { readonly _tag: 'EmitDropped'; readonly event: string; readonly failure: RequestFailure; readonly message: string }
  | { readonly _tag: 'SocketError'; readonly message: string }

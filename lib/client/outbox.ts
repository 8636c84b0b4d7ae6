/**
 * `createOutbox`: what a client sends: straight to the socket, in batches once the server
 * reads them, or, once the link is back, what waited in the offline queue. Part of `connect`.
 *
 * A closure whose functions come back as a tuple, not a record: in a browser bundle its
 * state and its parts minify to single letters (a record's property names would stay).
 * Portable like the core: imports nothing at run time from outside this folder but the
 * core's dependency-free wire module.
 */
import { BATCH_SEPARATOR } from '../core/ws/envelope-wire.js'
import type { Pending, Queued } from './pending-requests.js'
import type { WebSocketLike } from './web-socket-like.js'

/**
 * An outbox's parts:
 * - `send(text)`: sends on the open link, at once or with this tick's batch;
 * - `flush()`: sends what this tick batched, now (guarded: a socket that throws becomes an
 *   `error` event);
 * - `drain(pending)`: on a new connection, the requests sent before the drop go again with
 *   their ids, then the queue, in order.
 */
export type Outbox = readonly [send: (text: string) => unknown, flush: () => void, drain: (pending: Iterable<Pending>) => void]

/**
 * The outbox of one client, sending on whatever `socket()` answers at the time, batching
 * while `batch()` (the server's limit for this connection) is not 0, draining `queue`.
 *
 * Batches (docs/protocol.md): once the server said it reads them (its byte limit, 0 until
 * then), what is sent in one tick leaves at its end in one message, the envelopes separated
 * by RS; one that would take it past the limit (3 bytes counted per UTF-16 unit: never too
 * few) sends what came before it first. RS ('\x1e'): JSON text never holds it unescaped
 * (RFC 7464).
 *
 * @example
 * const [send, flush, drain] = createOutbox(() => socket, () => batch, queue, guard)
 * send('{"event":"hi"}')
 */
export const createOutbox = (
  socket: () => WebSocketLike | undefined,
  batch: () => number,
  queue: Queued[],
  guard: (name: string, fn: () => void) => () => void,
): Outbox => {
  let out = ''
  const flush = guard('send', () => {
    if (out) socket()?.send(out)
    out = ''
  })
  const send = (text: string): unknown => {
    const limit = batch()
    if (!limit) return (socket() as WebSocketLike).send(text)
    if ((out.length + text.length) * 3 >= limit) flush()
    return out ? (out += BATCH_SEPARATOR + text) : ((out = text), queueMicrotask(flush))
  }
  return [
    send,
    flush,
    (pending) => {
      for (const p of pending) if (p.sent) send(p.text)
      for (const item of queue.splice(0)) send(typeof item === 'string' ? item : ((item.sent = true), item.text))
    },
  ]
}

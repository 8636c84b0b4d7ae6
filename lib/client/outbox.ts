/**
 * `Outbox`: what a client sends: straight to the socket, in batches once the server reads
 * them, or into the offline queue while the link is down. Part of `connect`.
 *
 * A class with private fields, not a record of closures: its state minifies to nothing in a
 * browser bundle. Portable like the core: imports nothing at run time from outside this
 * folder but the core's dependency-free wire module.
 */
import { BATCH_SEPARATOR } from '../core/ws/envelope-wire.js'
import type { Pending, Queued } from './pending-requests.js'
import type { WebSocketLike } from './web-socket-like.js'

/**
 * The outbox of one client, sending on whatever `socket()` answers at the time; `flush` is
 * guarded by the caller's `guard` (a socket that throws becomes an `error` event).
 *
 * Batches (docs/protocol.md): once the server said it reads them (`batch`, its byte limit, 0
 * until then), what is sent in one tick leaves at its end in one message, the envelopes
 * separated by RS; one that would take it past the limit (3 bytes counted per UTF-16 unit:
 * never too few) sends what came before it first. RS ('\x1e'): JSON text never holds it
 * unescaped (RFC 7464).
 *
 * @example
 * const outbox = new Outbox(() => socket, guard)
 * outbox.send('{"event":"hi"}')
 */
export class Outbox {
  /** The offline queue: emits' texts and requests not yet sent, in order. */
  readonly queue: Queued[] = []
  /** The server's batch limit on this connection; 0: send each message alone. */
  batch = 0
  /** Sends what this tick batched, now. */
  readonly flush: () => void
  readonly #socket: () => WebSocketLike | undefined
  #out = ''

  constructor(socket: () => WebSocketLike | undefined, guard: (name: string, fn: () => void) => () => void) {
    this.#socket = socket
    this.flush = guard('send', () => {
      if (this.#out) socket()?.send(this.#out)
      this.#out = ''
    })
  }

  /** Sends `text` on the open link, at once or with this tick's batch. */
  send(text: string): unknown {
    if (!this.batch) return (this.#socket() as WebSocketLike).send(text)
    if ((this.#out.length + text.length) * 3 >= this.batch) this.flush()
    return this.#out ? (this.#out += BATCH_SEPARATOR + text) : ((this.#out = text), queueMicrotask(this.flush))
  }

  /** On a new connection: the requests sent before the drop go again with their ids, then the queue, in order. */
  drain(pending: Iterable<Pending>): void {
    for (const p of pending) if (p.sent) this.send(p.text)
    for (const item of this.queue.splice(0)) this.send(typeof item === 'string' ? item : ((item.sent = true), item.text))
  }
}

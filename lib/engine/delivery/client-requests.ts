/**
 * `ClientRequests`: the server→client requests of one server (docs/protocol.md, "Server
 * requests"). A request is an event envelope with an `id` (`{"event","data","id"}`, numbered
 * like any envelope for a session client) sent only to a client that announced it answers
 * them (`tp_r=1` in its upgrade query); the client's `ack` or `error` with that id settles
 * it. Each waits in a map by id with its own timer; a client gone for good fails its
 * requests with `disconnected` (a session's drop within its window does not: the request was
 * kept for the replay, and the answer may come on the next connection). Settles once: a
 * second answer for the same id is dropped. Must not import `node:*`, Buffer or process.
 */
import { type ClientAnswer, type ClientRequestError, clientFailure } from '../../core/route/client-answer.js'
import { encodeEnvelope } from '../../core/ws/envelope-wire.js'
import type { EventId } from '../../core/ws/event.js'
import type { FrameWriter, TimerId, Timers } from '../platform.js'
import type { Delivery } from './delivery.js'

/** How long a request waits for its answer when the caller says nothing. */
export const DEFAULT_REQUEST_TIMEOUT_MS = 10_000

// What a client announces in its upgrade query: it answers server requests.
const ANSWERS = /(?:^|&)tp_r=1(?:&|$)/

interface Waiting {
  readonly clientId: number
  readonly settle: (answer: ClientAnswer) => void
  readonly timer: TimerId
}

export class ClientRequests<S> {
  private nextId = 0
  private readonly waiting = new Map<number, Waiting>()
  // The clients that announced answers and are not gone for good (a parked session stays).
  private readonly answering = new Set<number>()

  constructor(
    private readonly delivery: Delivery<S>,
    private readonly frames: FrameWriter,
    private readonly timers: Timers,
    /** Whether the client is a WebSocket client of this node (connected, or its session parked). */
    private readonly connected: (clientId: number) => boolean,
  ) {}

  /** Whether an upgrade query announces server requests (`tp_r=1`). */
  static announced(rawQuery: string): boolean {
    return ANSWERS.test(rawQuery)
  }

  /** A client's connection opened (or resumed) with `tp_r=1`. */
  opened(clientId: number): void {
    this.answering.add(clientId)
  }

  /** Asks client `clientId`; settles to its answer, or why there is none. */
  ask<A>(clientId: number, event: string, data: unknown, timeoutMs = DEFAULT_REQUEST_TIMEOUT_MS): Promise<ClientAnswer<A>> {
    const unanswered = (error: ClientRequestError): Promise<ClientAnswer<A>> => Promise.resolve({ _tag: 'Unanswered', clientId, error })
    if (!this.answering.has(clientId)) return unanswered(this.connected(clientId) ? 'not_supported' : 'disconnected')
    // Ids stay below 2^31: a client may keep them in any integer.
    const id = (this.nextId = (this.nextId % 0x7fffffff) + 1)
    let text: string
    try {
      text = encodeEnvelope(event, data, id)
    } catch {
      return unanswered('unserializable')
    }
    return new Promise<ClientAnswer<A>>((resolve) => {
      const timer = this.timers.setTimeout(() => this.settle(id, { _tag: 'Unanswered', clientId, error: 'timeout' }), timeoutMs)
      this.waiting.set(id, { clientId, settle: resolve as (answer: ClientAnswer) => void, timer })
      // A session client away gets it on its replay; one with no connection at all cannot.
      if (!this.delivery.send(clientId, this.frames.text(text), text)) this.settle(id, { _tag: 'Unanswered', clientId, error: 'disconnected' })
    })
  }

  /**
   * An `ack` or `error` envelope from client `clientId`: true when it answers one of its
   * requests (settled now, or already), false when it is none (dispatched as before).
   */
  answered(clientId: number, id: EventId | undefined, data: unknown, failed: boolean): boolean {
    if (typeof id !== 'number' || !this.answering.has(clientId)) return false
    const waiting = this.waiting.get(id)
    if (waiting === undefined) return id > 0 && id <= this.nextId
    if (waiting.clientId !== clientId) return false
    this.settle(id, failed ? { _tag: 'Unanswered', clientId, error: clientFailure(data) } : { _tag: 'Answered', clientId, data })
    return true
  }

  /** Client `clientId` is gone for good: what it was asked fails with `disconnected`. */
  gone(clientId: number): void {
    if (!this.answering.delete(clientId)) return
    for (const [id, waiting] of this.waiting) if (waiting.clientId === clientId) this.settle(id, { _tag: 'Unanswered', clientId, error: 'disconnected' })
  }

  private settle(id: number, answer: ClientAnswer): void {
    const waiting = this.waiting.get(id)
    if (waiting === undefined) return
    this.waiting.delete(id)
    this.timers.clearTimeout(waiting.timer)
    waiting.settle(answer)
  }
}

/**
 * One client's session (docs/protocol.md, "Sessions, numbering and recovery"), kept by the
 * engine for clients that opt in: the numbers of the messages sent to it, the last of them
 * for a replay, and the answers to its requests, so a request retried after a reconnect is
 * answered again instead of running twice. Bounded: at most `maxMessages` messages and
 * `maxAnswers` answers are kept; a client that missed more gets a fresh session.
 * Must not import `node:*`, Buffer or process.
 */
import type { EventId } from '../core/ws/event.js'
import { numberEnvelope } from '../core/ws/session-wire.js'
import type { TimerId } from './platform.js'

export interface SessionLimits {
  /** How long a disconnected session waits for its client (ms). */
  readonly windowMs: number
  /** Messages kept for a replay. */
  readonly maxMessages: number
  /** Answers kept for requests retried with the same id. */
  readonly maxAnswers: number
}

/** A new session id: 128 random bits as 22 characters of base64url. */
export const newSessionId = (): string => {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16))
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

/** An answer still being computed: a retry waits for it instead of running the handler again. */
export const PENDING = 'pending'

export class ClientSession {
  private nextSeq = 1
  // Numbered texts, oldest first; `first` is the sequence number of sent[0].
  private sent: string[] = []
  private first = 1
  private readonly answers = new Map<EventId, string>()
  /** The client's data while it is away. */
  data: Map<string, unknown> | undefined = undefined
  /** The expiry of a disconnected session. */
  expiry: TimerId | undefined = undefined

  constructor(
    readonly sid: string,
    readonly clientId: number,
    private readonly limits: SessionLimits,
  ) {}

  /** Numbers an envelope text and keeps it for a replay. */
  number(text: string): string {
    const numbered = numberEnvelope(text, this.nextSeq++)
    this.sent.push(numbered)
    if (this.sent.length > this.limits.maxMessages) {
      // Dropped in batches: one copy per tenth of the window, not one shift per message.
      const drop = Math.max(1, this.limits.maxMessages >> 3)
      this.sent = this.sent.slice(drop)
      this.first += drop
    }
    return numbered
  }

  /**
   * The numbered messages after `lastSeq`, in order; `undefined` when the client cannot be
   * brought up to date (some are no longer kept, or it claims numbers never sent).
   */
  since(lastSeq: number): readonly string[] | undefined {
    if (lastSeq >= this.nextSeq || lastSeq + 1 < this.first) return undefined
    return this.sent.slice(lastSeq + 1 - this.first)
  }

  /** The answer given to request `id`, `PENDING` while it runs, or `undefined`. */
  answerOf(id: EventId): string | undefined {
    return this.answers.get(id)
  }

  /** Forgets request `id` (its handler chose not to answer). */
  forget(id: EventId): void {
    this.answers.delete(id)
  }

  /** Remembers request `id`'s answer (or that it runs); the oldest is forgotten past the bound. */
  remember(id: EventId, answer: string): void {
    this.answers.delete(id)
    this.answers.set(id, answer)
    if (this.answers.size > this.limits.maxAnswers) this.answers.delete(this.answers.keys().next().value as EventId)
  }
}

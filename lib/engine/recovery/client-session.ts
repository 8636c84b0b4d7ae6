/**
 * One client's session (docs/protocol.md, "Sessions, numbering and recovery"), kept by the
 * engine for clients that opt in: the numbers of the messages sent to it, the last of them
 * for a replay, and the answers to its requests, so a request retried after a reconnect is
 * answered again instead of running twice. Bounded: at most `maxMessages` messages and
 * `maxAnswers` answers are kept; a client that missed more gets a fresh session.
 * Must not import `node:*`, Buffer or process.
 */
import type { Sequence } from '../../core/cluster/cluster-message.js'
import { sequenceBefore } from '../../core/cluster/sequence-before.js'
import type { EventId } from '../../core/ws/event.js'
import { numberEnvelope } from '../../core/ws/session-wire.js'
import type { TimerId } from '../platform.js'

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

/**
 * Where a message being numbered comes from, when it is a broadcast: its target (a
 * `cursorKey`), the node it started on, its place in the target's log when known (it came
 * from another node), and its frame (for a broadcast this node started, whose place is not
 * known yet).
 */
export interface FrameSource {
  readonly key: string
  readonly origin: string
  readonly position?: Sequence
  readonly frame?: Uint8Array
  /** The frame's `frameHash`, for a broadcast this node started (computed once per broadcast). */
  readonly hash?: number
}

/** A message held while a session is being restored from the store, with its source. */
export interface HeldMessage {
  readonly text: string
  readonly source: FrameSource | undefined
}

/** Told of every message numbered for a session (the recovery store's journal). */
export interface SessionRecorder {
  /** `source`: where the message comes from when it is a broadcast (undefined: a direct message). */
  numbered(session: ClientSession, seq: number, text: string, source: FrameSource | undefined): void
}

/** An answer still being computed: a retry waits for it instead of running the handler again. */
export const PENDING = 'pending'

// A remembered answer, in a list from the least to the most recently remembered. A request is
// remembered twice (pending, then answered): moving its entry to the newest end is two links
// changed, where a Map kept in that order needs a delete and a set, and an iterator to find
// its oldest key.
interface Answer {
  readonly id: EventId
  text: string
  older: Answer | undefined
  newer: Answer | undefined
}

export class ClientSession {
  private nextSeq = 1
  // Numbered texts, oldest first; `first` is the sequence number of sent[0].
  private sent: string[] = []
  private first = 1
  private readonly answers = new Map<EventId, Answer>()
  private oldest: Answer | undefined = undefined
  private newest: Answer | undefined = undefined
  /** The client's data while it is away. */
  data: Map<string, unknown> | undefined = undefined
  /** The expiry of a disconnected session. */
  expiry: TimerId | undefined = undefined
  /** With a recovery store: told of each numbered message. */
  recorder: SessionRecorder | undefined = undefined
  /**
   * With a recovery store: for each target the client receives (`cursorKey`), the place of
   * the last broadcast to it the client was sent.
   */
  cursors: Map<string, Sequence> | undefined = undefined
  /**
   * With a recovery store: for each target, the `frameHash` of the last broadcast this node
   * started and numbered for the session (`SessionRecord.lastOwn`).
   */
  lastOwn: Map<string, number> | undefined = undefined
  /** While the session is restored from the store: messages wait here, not numbered yet. */
  held: HeldMessage[] | undefined = undefined

  constructor(
    readonly sid: string,
    readonly clientId: number,
    private readonly limits: SessionLimits,
  ) {}

  /** The number of the last message numbered (0: none yet). */
  get lastSeq(): number {
    return this.nextSeq - 1
  }

  /**
   * Takes up a session restored from the store: `kept` are the numbered texts after what
   * the client saw, in order, and the next number follows `lastSeq`.
   */
  restore(kept: readonly string[], lastSeq: number): void {
    this.sent = [...kept]
    this.first = lastSeq + 1 - kept.length
    this.nextSeq = lastSeq + 1
  }

  /**
   * Whether another node's broadcast from `source` reached this session already: its place is
   * at or before the session's cursor for that target. A restore reads a target's log and
   * numbers what it holds; the same entries may still arrive live from the adapter afterwards
   * (its reply and the pub/sub message race on two connections), and go to the client once.
   */
  has(source: FrameSource | undefined): boolean {
    const at = source?.position
    if (at === undefined || this.held !== undefined) return false
    const cursor = this.cursors?.get((source as FrameSource).key)
    return cursor !== undefined && !sequenceBefore(cursor, at)
  }

  /**
   * Numbers an envelope text and keeps it for a replay (or holds it while restoring).
   * `source` is where it comes from when it is a broadcast and a recovery store is on (its
   * target and place, for the session's cursors); undefined for a direct message.
   */
  number(text: string, source?: FrameSource): string {
    const recorder = this.recorder
    if (this.held !== undefined) {
      this.held.push({ text, source })
      return text
    }
    const seq = this.nextSeq++
    const numbered = numberEnvelope(text, seq)
    if (recorder !== undefined) recorder.numbered(this, seq, numbered, source)
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
    return this.answers.get(id)?.text
  }

  /** Forgets request `id` (its handler chose not to answer). */
  forget(id: EventId): void {
    const answer = this.answers.get(id)
    if (answer === undefined) return
    this.unlink(answer)
    this.answers.delete(id)
  }

  /**
   * Remembers request `id`'s answer (or that it runs), as the most recent; past the bound the
   * one remembered least recently is forgotten.
   */
  remember(id: EventId, text: string): void {
    const known = this.answers.get(id)
    if (known !== undefined) {
      known.text = text
      if (known !== this.newest) {
        this.unlink(known)
        this.append(known)
      }
      return
    }
    const answer: Answer = { id, text, older: undefined, newer: undefined }
    this.answers.set(id, answer)
    this.append(answer)
    if (this.answers.size > this.limits.maxAnswers) {
      const oldest = this.oldest as Answer
      this.unlink(oldest)
      this.answers.delete(oldest.id)
    }
  }

  private append(answer: Answer): void {
    answer.older = this.newest
    answer.newer = undefined
    if (this.newest === undefined) this.oldest = answer
    else this.newest.newer = answer
    this.newest = answer
  }

  private unlink(answer: Answer): void {
    const { older, newer } = answer
    if (older === undefined) this.oldest = newer
    else older.newer = newer
    if (newer === undefined) this.newest = older
    else newer.older = older
  }
}

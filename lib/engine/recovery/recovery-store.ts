/**
 * The store behind client session recovery (issue 10): where a session's state and the
 * frames it was sent are kept, so a client that reconnects (to this node, or to any node
 * when the store is shared) gets what it missed, in order, once, within the window, or an
 * explicit "resync" when that is not possible. The engine's recovery side calls it; the
 * Redis implementation is `redisRecoveryStore` in `twinport/redis`, shared by every node,
 * so a session survives the crash of the node it was on.
 *
 * Contract (every method may be called at any time; promises reject only when the store
 * itself is unreachable, and the caller must then carry on without recovery):
 * - `saveSession` whenever the state changes (connect, join, leave, namespace, client data),
 *   not only on disconnect: a crashed node never gets to say goodbye. Last write wins.
 * - `append(sid, seq, frame, expiresAt)` for each numbered frame sent to the session, with
 *   `seq` increasing by one per session (the numbers the client sees); the store keeps at
 *   most its configured count of frames per session, the newest.
 * - `readSince(sid, seq)`: the frames after `seq`, in order, or `Resync` when the session
 *   is unknown or expired, or when a frame after `seq` is no longer kept (a gap).
 *   `loadSessionSince` (optional) answers `loadSession` and `readSince` at one instant.
 * - `deleteSession` when the client leaves for good (a clean close); `expiresAt` (a time in
 *   ms since the epoch) bounds everything else.
 * - Ownership: a record names the node that holds the session (`node`). A node that takes a
 *   session over (its client came back there) writes it with `claim`; from then on the old
 *   node's writes and deletes of it are refused (`saveProgress` answers false), so a node
 *   that still believed it held the session learns it moved instead of writing over it.
 * - Optional target logs (the Redis store reads the Redis adapter's streams): the broadcasts
 *   to a target (everyone, a namespace, a room) after a place, with the node each came from,
 *   and the place of a target's last broadcast; they bring back what was broadcast while no
 *   node held a session (its node died and the client had not come back yet).
 *
 * Types only. Must not import `node:*`, Buffer or process.
 */
import type { Sequence } from '../../core/cluster/cluster-message.js'
import type { ClusterTarget } from '../cluster/cluster-adapter.js'

/** A client session as recovery keeps it (JSON data plus numbers). */
export interface SessionRecord {
  /** The session id the client presents when it reconnects. */
  readonly sid: string
  readonly namespace: string
  /** The rooms of the client, in its namespace. */
  readonly rooms: readonly string[]
  /** Rooms of other namespaces the client is in (rare), when there are any. */
  readonly otherRooms?: readonly { readonly namespace: string; readonly room: string }[]
  /** The client's data (`setClientData`), as JSON. */
  readonly data: Readonly<Record<string, unknown>>
  /** The number of the last frame sent to the session (0: none yet). */
  readonly lastSeq: number
  /** When the store may forget the session and its frames (ms since the epoch). */
  readonly expiresAt: number
  /**
   * Optional: for each target the client receives (`cursorKey`: '' everyone, `<namespace>`,
   * `<namespace>\u0000<room>`), the place of the last broadcast to it that the client was
   * sent (or the target's last place when it joined), for stores that keep target logs.
   */
  readonly cursors?: Readonly<Record<string, Sequence>>
  /** The node that holds the session (writes it); its own broadcasts reached the client at once. */
  readonly node?: string
  /**
   * For each target (`cursorKey`), the fingerprint (`frameHash`) of the last broadcast `node`
   * started and numbered for the session, so the node that takes the session over knows which
   * of `node`'s entries in the target's log the client was sent: those up to it, not those
   * after (numbered after this record, or never). Absent in records written before it existed:
   * then none of `node`'s entries is taken (issue 29).
   */
  readonly lastOwn?: Readonly<Record<string, number>>
}

/**
 * One numbered message kept for a session: what was (or would have been) written to the
 * client, as the UTF-8 bytes of the numbered envelope text.
 */
export interface MissedFrame {
  readonly seq: number
  readonly frame: Uint8Array
}

/** The answer to `readSince`: what to replay, or why the client must resync. */
export type ReadSince =
  | { readonly _tag: 'Frames'; readonly frames: readonly MissedFrame[] }
  | { readonly _tag: 'Resync'; readonly reason: 'unknown_session' | 'gap' }

/** A room broadcast kept in the room's log, with its place. */
export interface RoomFrame {
  readonly seq: Sequence
  /** The whole WebSocket frame, as the origin node encoded it. */
  readonly frame: Uint8Array
  /** The node the broadcast started on, when the log says. */
  readonly origin?: string
  /** False when the frame is a raw message, not an event envelope (never numbered). */
  readonly envelope?: boolean
}

/** The answer to `readRoomSince`. */
export type ReadRoomSince =
  | { readonly _tag: 'Frames'; readonly frames: readonly RoomFrame[] }
  | { readonly _tag: 'Resync'; readonly reason: 'gap' | 'new_epoch' }

/** Where sessions and their missed frames are kept. */
export interface RecoveryStore {
  /** Writes (replaces) a session's state. */
  saveSession(session: SessionRecord): Promise<void>
  /** A session's state; `undefined` when unknown or expired. */
  loadSession(sid: string): Promise<SessionRecord | undefined>
  /** Keeps frame number `seq` of a session until `expiresAt`. */
  append(sid: string, seq: number, frame: Uint8Array, expiresAt: number): Promise<void>
  /** The frames of a session after `afterSeq`, in order; `Resync` when they cannot all be given. */
  readSince(sid: string, afterSeq: number): Promise<ReadSince>
  /**
   * Optional, one atomic read: what `loadSession(sid)` and `readSince(sid, afterSeq)` answer,
   * read at one instant, so a write landing between two reads (the old node's last journal
   * flush) cannot make them disagree. Stores whose writes can interleave with reads need it.
   */
  loadSessionSince?(sid: string, afterSeq: number): Promise<{ readonly record: SessionRecord | undefined; readonly read: ReadSince }>
  /** Forgets a session and its frames; with `node`, only while that node holds it. */
  deleteSession(sid: string, node?: string): Promise<void>
  /**
   * Optional, one round trip: appends `frames` (numbered, in order) and writes the session's
   * state after them. Answers false, writing nothing, when another node holds the session
   * (its record names another `node`) unless `claim` is set (this node takes it over).
   */
  saveProgress?(session: SessionRecord, frames: readonly MissedFrame[], claim?: boolean): Promise<boolean>
  /** Optional: like `readRoomSince` for any target (everyone, a namespace, a room); `after` `{0,0}`: from the start. */
  readTargetSince?(target: ClusterTarget, after: Sequence): Promise<ReadRoomSince>
  /** Optional: the place of a target's last broadcast (`{ epoch: 0, n: 0 }` when it has none yet). */
  targetPosition?(target: ClusterTarget): Promise<Sequence>
  /**
   * Optional (stores that keep room logs, as the Redis one does): the broadcasts to a room
   * after `after`, in order, with `Resync` when some are no longer kept or the log was
   * started again (`new_epoch`).
   */
  readRoomSince?(namespace: string, room: string, after: Sequence): Promise<ReadRoomSince>
}

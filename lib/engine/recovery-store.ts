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
 * - `deleteSession` when the client leaves for good (a clean close); `expiresAt` (a time in
 *   ms since the epoch) bounds everything else.
 *
 * Types only. Must not import `node:*`, Buffer or process.
 */
import type { Sequence } from '../core/cluster/cluster-message.js'

/** A client session as recovery keeps it (JSON data plus numbers). */
export interface SessionRecord {
  /** The session id the client presents when it reconnects. */
  readonly sid: string
  readonly namespace: string
  /** The rooms of the client, in its namespace. */
  readonly rooms: readonly string[]
  /** The client's data (`setClientData`), as JSON. */
  readonly data: Readonly<Record<string, unknown>>
  /** The number of the last frame sent to the session (0: none yet). */
  readonly lastSeq: number
  /** When the store may forget the session and its frames (ms since the epoch). */
  readonly expiresAt: number
  /**
   * Optional: for each room (`<namespace>\u0000<room>`), the place of the last room
   * broadcast the client was sent, for stores that also keep room logs (`readRoomSince`).
   */
  readonly cursors?: Readonly<Record<string, Sequence>>
}

/** One numbered frame kept for a session: the bytes exactly as they were (or would have been) written. */
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
  readonly frame: Uint8Array
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
  /** Forgets a session and its frames. */
  deleteSession(sid: string): Promise<void>
  /**
   * Optional (stores that keep room logs, as the Redis one does): the broadcasts to a room
   * after `after`, in order, with `Resync` when some are no longer kept or the log was
   * started again (`new_epoch`).
   */
  readRoomSince?(namespace: string, room: string, after: Sequence): Promise<ReadRoomSince>
}

/**
 * `mergeTail`: the broadcasts a session missed while no node held it (read from the store's
 * target logs after the session's cursors), put together with the messages that reached it
 * on this node while those logs were read (held, not numbered yet), so each goes to the
 * client once, in order per target. Pure: the engine numbers what it answers, in order.
 * Must not import `node:*`, Buffer or process.
 *
 * Which log entries are for the client:
 * - not those the node that held the session started and numbered for it: that node
 *   delivered its own broadcasts to its clients at once, before they entered the log (the
 *   client has them, or they are among its recorded messages). They are its entries up to
 *   the last one the session's record names (`formerLast`, by fingerprint: its broadcasts
 *   enter a target's log in the order it numbered them); its entries after that one were
 *   numbered after the record was written (between this node's load and its claim) or never,
 *   and the client did not get them: they are for it (issue 29). A record without
 *   `formerLast` (written before it existed) takes none of them;
 * - not raw messages (never numbered);
 * - once for those that reached it here already: a broadcast from another node is taken
 *   from the log, in the log's order, and its held copy (known by its place) dropped; one
 *   this node started (its place is not known when it is delivered) by its bytes: the last
 *   of this node's entries in the log that equal, in order, the first of its held
 *   broadcasts to the same target are the same broadcasts, and stay held.
 */
import type { FrameSource, HeldMessage } from './client-session.js'
import { frameText } from '../delivery/frame-text.js'
import { frameHash } from './frame-hash.js'
import type { RoomFrame } from './recovery-store.js'

/** One target's log after the session's cursor. */
export interface TailRead {
  /** The target (`cursorKey`). */
  readonly key: string
  readonly frames: readonly RoomFrame[]
}

/** A message to number for the client, in order, with its source. */
export interface ToNumber {
  readonly text: string
  readonly source: FrameSource | undefined
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

// How many of `tail`'s last entries are `local`'s first, in order (the longest such overlap).
const overlap = (tail: readonly Uint8Array[], local: readonly Uint8Array[]): number => {
  for (let i = Math.min(tail.length, local.length); i > 0; i--) {
    let same = true
    for (let k = 0; k < i && same; k++) same = sameBytes(tail[tail.length - i + k] as Uint8Array, local[k] as Uint8Array)
    if (same) return i
  }
  return 0
}

/**
 * The messages to number for a restored session: the target logs' entries it missed (target
 * by target, each in its log's order), then what was held, in the order it arrived.
 *
 * @example
 * mergeTail([{ key: '/\u0000lobby', frames: [{ seq: { epoch: 1, n: 5 }, frame, origin: 'b' }] }], [], { formerNode: 'a', thisNode: 'c' })
 * // [{ text: '{"event":"chat","data":"hi"}', source: { key: '/\u0000lobby', origin: 'b', position: { epoch: 1, n: 5 } } }]
 */
export const mergeTail = (
  tails: readonly TailRead[],
  held: readonly HeldMessage[],
  nodes: { readonly formerNode: string | undefined; readonly thisNode: string; readonly formerLast?: Readonly<Record<string, number>> | undefined },
): ToNumber[] => {
  const out: ToNumber[] = []
  // Entries handed out from the logs, and the former node's broadcasts the client was sent,
  // by place: held copies of them are dropped.
  const covered = new Set<string>()
  for (const { key, frames } of tails) {
    const local: Uint8Array[] = []
    for (const { source } of held) if (source?.key === key && source.position === undefined && source.origin === nodes.thisNode && source.frame !== undefined) local.push(source.frame)
    const former = formerSent(frames, key, nodes)
    for (const f of former) if (nodes.formerLast !== undefined) covered.add(`${key}\u0000${f.seq.epoch}-${f.seq.n}`)
    // Those that also reached it here are taken from the log too, in its order: a held copy
    // may have come before an earlier entry whose live copy had not arrived yet.
    const entries = frames.filter((f) => f.envelope !== false && !former.has(f))
    const mine = entries.filter((f) => f.origin === nodes.thisNode)
    const drop = new Set(mine.slice(mine.length - overlap(mine.map((f) => f.frame), local)))
    for (const f of entries) {
      if (drop.has(f)) continue
      const text = frameText(f.frame)
      if (text === undefined) continue
      covered.add(`${key}\u0000${f.seq.epoch}-${f.seq.n}`)
      out.push({ text, source: { key, origin: f.origin ?? '', position: f.seq } })
    }
  }
  for (const h of held) {
    const at = h.source?.position
    if (at !== undefined && covered.has(`${h.source?.key ?? ''}\u0000${at.epoch}-${at.n}`)) continue
    out.push({ text: h.text, source: h.source })
  }
  return out
}

// The former node's entries in a target's log that it numbered for the session: up to the
// last whose fingerprint the record names (none when that one is before the cursor, so not
// read); every one of them when the record names none (written before `lastOwn` existed).
const formerSent = (
  frames: readonly RoomFrame[],
  key: string,
  nodes: { readonly formerNode: string | undefined; readonly formerLast?: Readonly<Record<string, number>> | undefined },
): Set<RoomFrame> => {
  const former = frames.filter((f) => f.origin !== undefined && f.origin === nodes.formerNode)
  if (nodes.formerLast === undefined) return new Set(former)
  const last = nodes.formerLast[key]
  let upTo = -1
  if (last !== undefined) for (let i = former.length - 1; i >= 0 && upTo < 0; i--) if (frameHash((former[i] as RoomFrame).frame) === last) upTo = i
  return new Set(former.slice(0, upTo + 1))
}

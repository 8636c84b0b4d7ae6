/**
 * `mergeTail`: the broadcasts a session missed while no node held it (read from the store's
 * target logs after the session's cursors), put together with the messages that reached it
 * on this node while those logs were read (held, not numbered yet), so each goes to the
 * client once, in order per target. Pure: the engine numbers what it answers, in order.
 * Must not import `node:*`, Buffer or process.
 *
 * Which log entries are for the client:
 * - not those the node that held the session started: that node delivered its own
 *   broadcasts to its clients at once, before they entered the log (the client has them, or
 *   they are among its recorded messages);
 * - not raw messages (never numbered);
 * - not those that reached it here already: a broadcast from another node by its place in
 *   the log; one this node started (its place is not known when it is delivered) by its
 *   bytes: the last of this node's entries in the log that equal, in order, the first of its
 *   held broadcasts to the same target are the same broadcasts.
 */
import type { FrameSource, HeldMessage } from './client-session.js'
import { frameText } from '../delivery/frame-text.js'
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
  nodes: { readonly formerNode: string | undefined; readonly thisNode: string },
): ToNumber[] => {
  const out: ToNumber[] = []
  for (const { key, frames } of tails) {
    const seen = new Set<string>()
    const local: Uint8Array[] = []
    for (const { source } of held) {
      if (source?.key !== key) continue
      if (source.position !== undefined) seen.add(`${source.position.epoch}-${source.position.n}`)
      else if (source.origin === nodes.thisNode && source.frame !== undefined) local.push(source.frame)
    }
    const entries = frames.filter(
      (f) => f.envelope !== false && (f.origin === undefined || f.origin !== nodes.formerNode) && !seen.has(`${f.seq.epoch}-${f.seq.n}`),
    )
    const mine = entries.filter((f) => f.origin === nodes.thisNode)
    const drop = new Set(mine.slice(mine.length - overlap(mine.map((f) => f.frame), local)))
    for (const f of entries) {
      if (drop.has(f)) continue
      const text = frameText(f.frame)
      if (text !== undefined) out.push({ text, source: { key, origin: f.origin ?? '', position: f.seq } })
    }
  }
  for (const h of held) out.push({ text: h.text, source: h.source })
  return out
}

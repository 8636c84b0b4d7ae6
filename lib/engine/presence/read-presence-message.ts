/**
 * `readPresenceMessage`: another node's presence message (`tp:presence`: a delta, a request
 * for this node's state, a digest) checked by hand, as it arrives once per change on every
 * other node. It accepts what the io-ts codec it replaces accepted (extra fields ignored,
 * `meta` any value, even absent) and answers the same data, without io-ts' context arrays:
 * the receiving node's CPU per change (bench/RESULTS.md "Session 13: presence CPU per change").
 * A node never trusts the wire: anything else is a `left` naming the first field that is wrong.
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { NodeClock, PresenceEntry } from '../../core/presence/presence-state.js'

/** A presence message between nodes. */
export type PresenceMessage =
  | { readonly t: 'delta'; readonly topic: string; readonly base: NodeClock; readonly clock: NodeClock; readonly joins: readonly PresenceEntry[]; readonly leaves: readonly PresenceEntry[] }
  | { readonly t: 'sync'; readonly topic: string }
  /** The sender's epoch and `[topic, n]` for every topic whose clock moved in it. */
  | { readonly t: 'digest'; readonly epoch: number; readonly topics: readonly (readonly [string, number])[] }

type Fields = Readonly<Record<string, unknown>>
const isRecord = (u: unknown): u is Fields => typeof u === 'object' && u !== null && !Array.isArray(u)
const isClock = (u: unknown): u is NodeClock => isRecord(u) && typeof u.epoch === 'number' && typeof u.n === 'number'
const isEntry = (u: unknown): u is PresenceEntry => isRecord(u) && typeof u.key === 'string' && typeof u.conn === 'number'
const isEntries = (u: unknown): u is readonly PresenceEntry[] => Array.isArray(u) && u.every(isEntry)
const isTopicClock = (u: unknown): u is readonly [string, number] => Array.isArray(u) && u.length === 2 && typeof u[0] === 'string' && typeof u[1] === 'number'

/**
 * The message `data` is, or the field that is wrong.
 *
 * @example
 * readPresenceMessage({ t: 'sync', topic: 'lobby' }) // right({ t: 'sync', topic: 'lobby' })
 * readPresenceMessage({ t: 'delta', topic: 'lobby' }) // left('base')
 */
export const readPresenceMessage = (data: unknown): E.Either<string, PresenceMessage> => {
  if (!isRecord(data)) return E.left('message')
  switch (data.t) {
    case 'delta': {
      const { topic, base, clock, joins, leaves } = data
      if (typeof topic !== 'string') return E.left('topic')
      if (!isClock(base)) return E.left('base')
      if (!isClock(clock)) return E.left('clock')
      if (!isEntries(joins)) return E.left('joins')
      if (!isEntries(leaves)) return E.left('leaves')
      return E.right({ t: 'delta', topic, base, clock, joins, leaves })
    }
    case 'sync':
      return typeof data.topic === 'string' ? E.right({ t: 'sync', topic: data.topic }) : E.left('topic')
    case 'digest': {
      const { epoch, topics } = data
      if (typeof epoch !== 'number') return E.left('epoch')
      if (!Array.isArray(topics) || !topics.every(isTopicClock)) return E.left('topics')
      return E.right({ t: 'digest', epoch, topics })
    }
    default:
      return E.left('t')
  }
}

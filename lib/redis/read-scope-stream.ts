/**
 * Reads of a target's Redis records for the scope listener: its stream after a place (a
 * fill: a gap, an outage or a new epoch), in pages, and where its last epoch ended (the
 * publish script keeps `pe`, `pn` in the counter when a failover starts a new epoch).
 * Imports the engine as types only, no `node:*`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ClusterBroadcast, Sequence } from '../core/cluster/cluster-message.js'
import { decodeClusterMessage } from '../core/cluster/decode-cluster-message.js'
import type { ScopeKeys } from './redis-keys.js'
import type { RedisPort } from './redis-port.js'
import type { Placed } from './scope-order.js'

/**
 * The broadcasts of a target's stream strictly after `from`, in order, read `pageSize` at a
 * time; an entry that is not a broadcast is skipped and handed to `invalid`.
 */
export const readScopeStream = async (
  port: RedisPort,
  keys: ScopeKeys,
  from: Sequence,
  pageSize: number,
  invalid: (reason: string, where: string) => void,
): Promise<Placed<ClusterBroadcast>[]> => {
  const entries: Placed<ClusterBroadcast>[] = []
  let start = `(${from.epoch}-${from.n}`
  for (;;) {
    const rows = (await port.command(['XRANGE', keys.stream, start, '+', 'COUNT', String(pageSize)], { key: keys.stream, bytes: true })) as [Uint8Array, Uint8Array[]][]
    for (const [id, fields] of rows) {
      start = `(${new TextDecoder().decode(id)}`
      const decoded = decodeClusterMessage(fields[1] ?? new Uint8Array(0))
      if (E.isLeft(decoded) || decoded.right._tag !== 'Broadcast') {
        invalid(E.isLeft(decoded) ? decoded.left.reason : 'not a broadcast', keys.stream)
        continue
      }
      entries.push({ seq: decoded.right.seq, item: decoded.right })
    }
    if (rows.length < pageSize) return entries
  }
}

/** Where the target's previous epoch ended (`pe`, `pn`), as numbers; NaN where the counter has none. */
export const readEpochEnd = async (port: RedisPort, keys: ScopeKeys): Promise<{ readonly epoch: number; readonly n: number }> => {
  const reply = (await port.command(['HMGET', keys.counter, 'pe', 'pn'], { key: keys.counter })) as (string | null)[]
  const [epoch, n] = reply.map((x) => (x === null ? Number.NaN : Number(x)))
  return { epoch: epoch ?? Number.NaN, n: n ?? Number.NaN }
}

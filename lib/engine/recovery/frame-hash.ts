/**
 * `frameHash`: a 32-bit FNV-1a fingerprint of a broadcast's frame bytes. A session's record
 * keeps, per target, the fingerprint of the last broadcast its node started and numbered for
 * it (`SessionRecord.lastOwn`), so a node that takes the session over tells, in the target's
 * log, the old node's broadcasts the client was sent from those it never was (issue 29).
 * Pure. Must not import `node:*`, Buffer or process.
 */

/**
 * The FNV-1a hash of `bytes`, as an unsigned 32-bit number.
 *
 * @example
 * frameHash(new Uint8Array([0x61])) // 3826002220
 */
export const frameHash = (bytes: Uint8Array): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193)
  return h >>> 0
}

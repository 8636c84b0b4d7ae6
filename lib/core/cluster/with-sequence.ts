/**
 * `withSequence`: a cluster message given its place in its target's order, by rewriting
 * the 20-byte sequence trailer (what the Redis script does in Lua when it appends the
 * message to the target's stream). Pure and portable.
 */
import type { Sequence } from './cluster-message.js'
import { SEQUENCE_TRAILER_LENGTH, writeSequence } from './cluster-wire.js'

/**
 * A copy of `message` (an encoded cluster message) with sequence `seq`.
 *
 * @example
 * withSequence(encoded, { epoch: 1700000000000, n: 42 })
 */
export const withSequence = (message: Uint8Array, seq: Sequence): Uint8Array => {
  const out = message.slice()
  if (out.length >= SEQUENCE_TRAILER_LENGTH) writeSequence(out, seq)
  return out
}

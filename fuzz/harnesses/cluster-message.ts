/**
 * Harness `cluster-message`: the cluster message codec, CRC included. `decodeClusterMessage`
 * on any bytes gives a message or a tagged error, never a throw; a decoded message encodes
 * back to exactly the bytes it came from, and a broadcast's or direct's frame is a view of
 * them; flipping any one bit of a valid message never yields a different valid message (the
 * CRCs catch it); `crc32` over a range equals `crc32` of that range copied.
 */
import * as E from 'fp-ts/lib/Either.js'
import { crc32 } from '../../lib/core/cluster/crc32.js'
import { decodeClusterMessage } from '../../lib/core/cluster/decode-cluster-message.js'
import { encodeClusterMessage } from '../../lib/core/cluster/encode-cluster-message.js'
import { expect, plainBytes, same } from '../support/contract.js'

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const decoded = decodeClusterMessage(data)
  if (E.isLeft(decoded)) {
    expect(typeof decoded.left._tag === 'string', 'a tagged error')
  } else {
    const message = decoded.right
    const again = encodeClusterMessage(message)
    expect(E.isRight(again), 'a decoded message encodes')
    if (E.isRight(again)) same(again.right, data, 'encode(decode(bytes))')
    if ('frame' in message) expect(message.frame.length === 0 || message.frame.buffer === data.buffer, 'the frame is a view')
    // One flipped bit, chosen by the input: never another valid message.
    if (data.length > 0) {
      const bit = (data[0]! * 131 + data.length) % (data.length * 8)
      const flipped = Uint8Array.from(data)
      flipped[bit >> 3]! ^= 1 << (bit & 7)
      const other = decodeClusterMessage(flipped)
      expect(E.isLeft(other), `bit ${bit} flipped still decodes`)
    }
  }
  const from = data.length === 0 ? 0 : data[0]! % (data.length + 1)
  expect(crc32(data, from) === crc32(data.slice(from)), 'crc32 of a range')
  expect(crc32(data) >>> 0 === crc32(data) || crc32(data) === (crc32(data) | 0), 'crc32 is a 32-bit number')
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

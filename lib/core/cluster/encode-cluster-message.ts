/**
 * `encodeClusterMessage`: a cluster message to bytes, in one allocation (layout:
 * `cluster-wire.ts`). A broadcast's frame is copied once into the message and never
 * re-encoded. Pure and portable.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ClusterMessage } from './cluster-message.js'
import { type ClusterMessageError, invalidField, invalidFrame } from './cluster-message-error.js'
import { checkServerFrame, FLAG_ENVELOPE, FLAG_NAMESPACE, FLAG_ROOM, KIND, MAGIC_0, MAGIC_1, CLUSTER_WIRE_VERSION, SEQUENCE_TRAILER_LENGTH, setU64, writeSequence } from './cluster-wire.js'
import { crc32 } from './crc32.js'

const encoder = new TextEncoder()

// A name with a u8 (1–255, or 0–255 when it may be empty) or u16 length prefix.
const name = (field: string, text: string, max: number, allowEmpty: boolean): E.Either<ClusterMessageError, Uint8Array> => {
  const bytes = encoder.encode(text)
  if (bytes.length > max) return E.left(invalidField(field, `longer than ${max} bytes`))
  if (bytes.length === 0 && !allowEmpty) return E.left(invalidField(field, 'empty'))
  return E.right(bytes)
}
const safeInt = (n: number, min: number, max: number): boolean => Number.isSafeInteger(n) && n >= min && n <= max

/**
 * The bytes of a message, or why it cannot be one (a name too long or empty, a number out
 * of range, a frame that is not one complete unmasked server frame).
 *
 * @example
 * encodeClusterMessage({ _tag: 'Broadcast', origin: 'n1', seq: UNSEQUENCED, room: 'lobby', frame: new Uint8Array([0x81, 0x02, 0x68, 0x69]) })
 * // right(Uint8Array [0x74, 0x77, 0x01, 0x01, ...])
 */
export const encodeClusterMessage = (message: ClusterMessage): E.Either<ClusterMessageError, Uint8Array> => {
  const origin = name('origin', message.origin, 255, false)
  if (E.isLeft(origin)) return origin
  if (!safeInt(message.seq.epoch, 0, Number.MAX_SAFE_INTEGER) || !safeInt(message.seq.n, 0, Number.MAX_SAFE_INTEGER)) {
    return E.left(invalidField('seq', 'not a pair of safe non-negative integers'))
  }
  const parts: Uint8Array[] = []
  let payload: Uint8Array
  let fields = 0
  let flags = 0
  switch (message._tag) {
    case 'Broadcast': {
      for (const [flag, value, field] of [[FLAG_NAMESPACE, message.namespace, 'namespace'], [FLAG_ROOM, message.room, 'room']] as const) {
        if (value === undefined) continue
        const bytes = name(field, value, 0xffff, true)
        if (E.isLeft(bytes)) return bytes
        flags |= flag
        parts.push(bytes.right)
        fields += 2 + bytes.right.length
      }
      if (message.envelope === true) flags |= FLAG_ENVELOPE
      fields += 1
      payload = message.frame
      break
    }
    case 'Direct': {
      const node = name('node', message.node, 255, false)
      if (E.isLeft(node)) return node
      if (!safeInt(message.clientId, 1, Number.MAX_SAFE_INTEGER)) return E.left(invalidField('clientId', 'not a positive safe integer'))
      parts.push(node.right)
      fields += 1 + node.right.length + 8 + 1
      payload = message.frame
      break
    }
    case 'Request':
    case 'Reply': {
      const node = name('node', message.node, 255, message._tag === 'Request')
      if (E.isLeft(node)) return node
      if (!safeInt(message.requestId, 0, 0xffff_ffff)) return E.left(invalidField('requestId', 'not a u32'))
      parts.push(node.right)
      fields += 4 + 1 + node.right.length
      payload = encoder.encode(message.body)
      break
    }
  }
  if (message._tag === 'Broadcast' || message._tag === 'Direct') {
    const bad = checkServerFrame(payload)
    if (bad !== undefined) return E.left(invalidFrame(bad))
  }
  if (payload.length > 0xffff_ffff) return E.left(invalidField('payload', 'longer than 4 GiB'))

  const bodyLength = 5 + origin.right.length + fields + 4 + payload.length
  const out = new Uint8Array(bodyLength + 4 + SEQUENCE_TRAILER_LENGTH)
  const view = new DataView(out.buffer)
  out[0] = MAGIC_0
  out[1] = MAGIC_1
  out[2] = CLUSTER_WIRE_VERSION
  out[3] = KIND[message._tag]
  out[4] = origin.right.length
  out.set(origin.right, 5)
  let at = 5 + origin.right.length
  const putName = (bytes: Uint8Array, wide: boolean): void => {
    if (wide) {
      view.setUint16(at, bytes.length)
      at += 2
    } else out[at++] = bytes.length
    out.set(bytes, at)
    at += bytes.length
  }
  switch (message._tag) {
    case 'Broadcast':
      out[at++] = flags
      for (const part of parts) putName(part, true)
      break
    case 'Direct':
      putName(parts[0] as Uint8Array, false)
      setU64(view, at, message.clientId)
      at += 8
      out[at++] = message.envelope === true ? FLAG_ENVELOPE : 0
      break
    case 'Request':
    case 'Reply':
      view.setUint32(at, message.requestId)
      at += 4
      putName(parts[0] as Uint8Array, false)
      break
  }
  view.setUint32(at, payload.length)
  out.set(payload, at + 4)
  view.setUint32(bodyLength, crc32(out, 0, bodyLength))
  writeSequence(out, message.seq)
  return E.right(out)
}

/**
 * `decodeClusterMessage`: bytes from the channel to a cluster message, or why they are not
 * one. Foreign bytes, another version, corruption anywhere (both parts carry a CRC-32) and
 * fields out of range are tagged errors; nothing throws, and a corrupt message is never
 * taken for a different valid one. A pub/sub message arrives whole, so this decoder is not
 * incremental: the bytes must be exactly one message. A broadcast's frame is returned as a
 * view of `bytes` (no copy), ready to be written to sockets. Pure and portable.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ClusterMessage, Sequence } from './cluster-message.js'
import {
  checksumMismatch,
  type ClusterMessageError,
  invalidField,
  invalidFrame,
  notClusterMessage,
  trailingBytes,
  truncated,
  unknownKind,
  unsupportedVersion,
} from './cluster-message-error.js'
import { checkServerFrame, CLUSTER_WIRE_VERSION, FLAG_ENVELOPE, FLAG_NAMESPACE, FLAG_ROOM, getU64, KIND, MAGIC_0, MAGIC_1, SEQUENCE_TRAILER_LENGTH } from './cluster-wire.js'
import { crc32 } from './crc32.js'

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

// The smallest body (a one-byte origin and an empty payload) with its CRC and the trailer.
const MIN_LENGTH = 5 + 1 + 4 + 4 + SEQUENCE_TRAILER_LENGTH

// Reads fields in order from bytes[0..end); every read is checked against `end`.
class Cursor {
  at = 4
  constructor(
    readonly bytes: Uint8Array,
    readonly view: DataView,
    readonly end: number,
  ) {}
  has(n: number): boolean {
    return this.at + n <= this.end
  }
}

const readText = (c: Cursor, field: string, lengthBytes: 1 | 2, allowEmpty: boolean): E.Either<ClusterMessageError, string> => {
  if (!c.has(lengthBytes)) return E.left(truncated(field))
  const length = lengthBytes === 1 ? (c.bytes[c.at] as number) : c.view.getUint16(c.at)
  c.at += lengthBytes
  if (length === 0 && !allowEmpty) return E.left(invalidField(field, 'empty'))
  if (!c.has(length)) return E.left(truncated(field))
  const slice = c.bytes.subarray(c.at, c.at + length)
  c.at += length
  try {
    return E.right(utf8.decode(slice))
  } catch {
    return E.left(invalidField(field, 'not UTF-8'))
  }
}

const readU32 = (c: Cursor, field: string): E.Either<ClusterMessageError, number> => {
  if (!c.has(4)) return E.left(truncated(field))
  const n = c.view.getUint32(c.at)
  c.at += 4
  return E.right(n)
}

const readPayload = (c: Cursor): E.Either<ClusterMessageError, Uint8Array> => {
  const length = readU32(c, 'payload length')
  if (E.isLeft(length)) return length
  if (!c.has(length.right)) return E.left(truncated('payload'))
  const payload = c.bytes.subarray(c.at, c.at + length.right)
  c.at += length.right
  return c.at === c.end ? E.right(payload) : E.left(trailingBytes(c.end - c.at))
}

const readFrame = (c: Cursor): E.Either<ClusterMessageError, Uint8Array> => {
  const frame = readPayload(c)
  if (E.isLeft(frame)) return frame
  const bad = checkServerFrame(frame.right)
  return bad === undefined ? frame : E.left(invalidFrame(bad))
}

const readBody = (c: Cursor): E.Either<ClusterMessageError, string> => {
  const payload = readPayload(c)
  if (E.isLeft(payload)) return payload
  try {
    return E.right(utf8.decode(payload.right))
  } catch {
    return E.left(invalidField('body', 'not UTF-8'))
  }
}

/**
 * The message in `bytes`, or why there is none.
 *
 * @example
 * decodeClusterMessage(new TextEncoder().encode('{"hello":1}'))
 * // left({ _tag: 'NotClusterMessage', reason: 'bad magic bytes' })
 */
export const decodeClusterMessage = (bytes: Uint8Array): E.Either<ClusterMessageError, ClusterMessage> => {
  if (bytes.length < 4) return E.left(notClusterMessage('shorter than a header'))
  if (bytes[0] !== MAGIC_0 || bytes[1] !== MAGIC_1) return E.left(notClusterMessage('bad magic bytes'))
  const version = bytes[2] as number
  if (version !== CLUSTER_WIRE_VERSION) return E.left(unsupportedVersion(version))
  const kind = bytes[3] as number
  if (kind < KIND.Broadcast || kind > KIND.Reply) return E.left(unknownKind(kind))
  if (bytes.length < MIN_LENGTH) return E.left(truncated('message'))

  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.length)
  const trailer = bytes.length - SEQUENCE_TRAILER_LENGTH
  if (crc32(bytes, trailer, trailer + 16) !== view.getUint32(trailer + 16)) return E.left(checksumMismatch('sequence'))
  const bodyEnd = trailer - 4
  if (crc32(bytes, 0, bodyEnd) !== view.getUint32(bodyEnd)) return E.left(checksumMismatch('body'))
  const epoch = getU64(view, trailer)
  const n = getU64(view, trailer + 8)
  if (epoch === undefined || n === undefined) return E.left(invalidField('seq', 'past 2^53 - 1'))
  const seq: Sequence = { epoch, n }

  const c = new Cursor(bytes, view, bodyEnd)
  const origin = readText(c, 'origin', 1, false)
  if (E.isLeft(origin)) return origin
  switch (kind) {
    case KIND.Broadcast: {
      if (!c.has(1)) return E.left(truncated('flags'))
      const flags = bytes[c.at++] as number
      if ((flags & ~(FLAG_NAMESPACE | FLAG_ROOM | FLAG_ENVELOPE)) !== 0) return E.left(invalidField('flags', `unknown bits ${flags.toString(16)}`))
      const namespace = (flags & FLAG_NAMESPACE) === 0 ? E.right(undefined) : readText(c, 'namespace', 2, true)
      if (E.isLeft(namespace)) return namespace
      const room = (flags & FLAG_ROOM) === 0 ? E.right(undefined) : readText(c, 'room', 2, true)
      if (E.isLeft(room)) return room
      const frame = readFrame(c)
      if (E.isLeft(frame)) return frame
      return E.right({
        _tag: 'Broadcast',
        origin: origin.right,
        seq,
        ...(namespace.right === undefined ? {} : { namespace: namespace.right }),
        ...(room.right === undefined ? {} : { room: room.right }),
        ...((flags & FLAG_ENVELOPE) === 0 ? {} : { envelope: true as const }),
        frame: frame.right,
      })
    }
    case KIND.Direct: {
      const node = readText(c, 'node', 1, false)
      if (E.isLeft(node)) return node
      if (!c.has(8)) return E.left(truncated('clientId'))
      const clientId = getU64(view, c.at)
      c.at += 8
      if (clientId === undefined || clientId === 0) return E.left(invalidField('clientId', 'not a positive safe integer'))
      if (!c.has(1)) return E.left(truncated('flags'))
      const flags = bytes[c.at++] as number
      if ((flags & ~FLAG_ENVELOPE) !== 0) return E.left(invalidField('flags', `unknown bits ${flags.toString(16)}`))
      const frame = readFrame(c)
      if (E.isLeft(frame)) return frame
      return E.right({
        _tag: 'Direct',
        origin: origin.right,
        seq,
        node: node.right,
        clientId,
        ...((flags & FLAG_ENVELOPE) === 0 ? {} : { envelope: true as const }),
        frame: frame.right,
      })
    }
    default: {
      const requestId = readU32(c, 'requestId')
      if (E.isLeft(requestId)) return requestId
      const node = readText(c, 'node', 1, kind === KIND.Request)
      if (E.isLeft(node)) return node
      const body = readBody(c)
      if (E.isLeft(body)) return body
      const tag = kind === KIND.Request ? 'Request' : 'Reply'
      return E.right({ _tag: tag, origin: origin.right, seq, requestId: requestId.right, node: node.right, body: body.right })
    }
  }
}

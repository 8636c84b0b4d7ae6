/**
 * The byte layout of a cluster message, version 1, shared by the encoder and the decoder
 * (docs/protocol.md "Between nodes"). All numbers are big-endian.
 *
 * ```
 * magic "tw" (74 77) · version (01) · kind (01 Broadcast, 02 Direct, 03 Request, 04 Reply)
 * origin: u8 length (1–255) + UTF-8
 * Broadcast: flags u8 (01 namespace, 02 room, 04 envelope) · [u16 length + UTF-8 namespace] · [u16 length + UTF-8 room]
 * Direct:    u8 length (1–255) + UTF-8 node · u64 client id · flags u8 (04 envelope)
 * Request:   u32 request id · u8 length (0–255) + UTF-8 node (empty: every node)
 * Reply:     u32 request id · u8 length (1–255) + UTF-8 node (the asker)
 * payload:   u32 length + bytes (Broadcast, Direct: one server frame; Request, Reply: JSON text)
 * u32 CRC-32 of everything above
 * sequence trailer: u64 epoch · u64 n · u32 CRC-32 of those 16 bytes
 * ```
 *
 * The sequence sits in a trailer with its own checksum so the cluster's log (a Redis script)
 * can give a message its place by replacing the last 20 bytes, without touching the body.
 * Pure and portable.
 */
import type { Sequence } from './cluster-message.js'
import { crc32 } from './crc32.js'
import { FIN_BINARY, FIN_TEXT, frameHeaderSize, LENGTH_OUT_OF_RANGE, lengthEnd, MASK_BIT, readPayloadLength } from '../ws/frame-header.js'

export const MAGIC_0 = 0x74
export const MAGIC_1 = 0x77
export const CLUSTER_WIRE_VERSION = 1

export const KIND = Object.freeze({ Broadcast: 1, Direct: 2, Request: 3, Reply: 4 } as const)

export const FLAG_NAMESPACE = 0x01
export const FLAG_ROOM = 0x02
/** The frame holds an event envelope (numbered for clients with a session), not a raw message. */
export const FLAG_ENVELOPE = 0x04

/** The sequence trailer: epoch, n, and their CRC-32. */
export const SEQUENCE_TRAILER_LENGTH = 20

const TWO_32 = 0x1_0000_0000
/** The largest high word of a u64 that stays a safe integer (2^53 - 1). */
export const MAX_SAFE_HIGH = 0x1f_ffff

/** Writes `n` (a safe non-negative integer) as a u64 at `at`. */
export const setU64 = (view: DataView, at: number, n: number): void => {
  view.setUint32(at, Math.floor(n / TWO_32))
  view.setUint32(at + 4, n >>> 0)
}

/** Reads a u64 at `at`; `undefined` past 2^53 - 1. */
export const getU64 = (view: DataView, at: number): number | undefined => {
  const high = view.getUint32(at)
  return high > MAX_SAFE_HIGH ? undefined : high * TWO_32 + view.getUint32(at + 4)
}

/** Writes the sequence trailer into the last 20 bytes of `message`. */
export const writeSequence = (message: Uint8Array, seq: Sequence): void => {
  const at = message.length - SEQUENCE_TRAILER_LENGTH
  const view = new DataView(message.buffer, message.byteOffset, message.length)
  setU64(view, at, seq.epoch)
  setU64(view, at + 8, seq.n)
  view.setUint32(at + 16, crc32(message, at, at + 16))
}

/**
 * Why `frame` is not one complete unmasked server data frame, or `undefined` when it is.
 * Only the header is read: the payload is written to sockets as it is.
 */
export const checkServerFrame = (frame: Uint8Array): string | undefined => {
  // RFC 6455 §5.2: FIN, RSV1-3 clear, opcode 0x1 (text) or 0x2 (binary).
  if (frame.length < 2) return 'shorter than a frame header'
  const first = frame[0] as number
  if (first !== FIN_TEXT && first !== FIN_BINARY) return 'not a final text or binary frame without RSV bits'
  const second = frame[1] as number
  // RFC 6455 §5.1: "A server MUST NOT mask any frames that it sends to the client."
  if ((second & MASK_BIT) !== 0) return 'masked'
  // RFC 6455 §5.2: 126 + 16-bit length, 127 + 64-bit length (most significant bit 0);
  // "the minimal number of bytes MUST be used to encode the length".
  const header = lengthEnd(second)
  if (frame.length < header) return 'shorter than its length field'
  const length = readPayloadLength(frame, 0)
  if (length === LENGTH_OUT_OF_RANGE || length > Number.MAX_SAFE_INTEGER) return 'length out of range'
  if (frameHeaderSize(length, false) !== header) return 'length not in its minimal form'
  if (header + length !== frame.length) return `header says ${length} payload bytes, ${frame.length - header} are there`
  return undefined
}

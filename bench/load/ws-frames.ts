/**
 * WebSocket framing for the load client, kept as lean as possible: builds masked
 * client frames once, ahead of the run, and counts the server's (unmasked)
 * frames in a received chunk without copying payloads. Pure; no `node:*`
 * imports (Uint8Array in, numbers and views out).
 */

/** RFC 6455 §5.2 opcodes the client cares about. */
export const OPCODE = { continuation: 0x0, text: 0x1, binary: 0x2, close: 0x8, ping: 0x9, pong: 0xa } as const

/**
 * A masked client frame with FIN set (RFC 6455 §5.2: the client MUST mask; 7-bit
 * length up to 125, 16-bit with 126, 64-bit with 127), payload XOR the 4-byte key
 * (§5.3: octet i is masked with key octet i MOD 4). `rsv1`: the payload is a
 * permessage-deflate compressed message (RFC 7692 §6).
 */
export const maskedFrame = (opcode: number, payload: Uint8Array, key: Uint8Array, rsv1 = false): Uint8Array => {
  const n = payload.length
  const lengthBytes = n < 126 ? 0 : n < 0x10000 ? 2 : 8
  const head = 2 + lengthBytes
  const frame = new Uint8Array(head + 4 + n)
  frame[0] = 0x80 | (rsv1 ? 0x40 : 0) | (opcode & 0x0f)
  if (lengthBytes === 0) frame[1] = 0x80 | n
  else if (lengthBytes === 2) {
    frame[1] = 0x80 | 126
    frame[2] = n >>> 8
    frame[3] = n & 0xff
  } else {
    frame[1] = 0x80 | 127
    new DataView(frame.buffer).setBigUint64(2, BigInt(n))
  }
  for (let i = 0; i < 4; i++) frame[head + i] = key[i] ?? 0
  for (let i = 0; i < n; i++) frame[head + 4 + i] = payload[i]! ^ (key[i & 3] ?? 0)
  return frame
}

/** What one pass over received bytes found. */
export interface Scan {
  /** complete data messages (text, binary or a final continuation frame). */
  readonly messages: number
  /** bytes consumed; the caller keeps `bytes.subarray(consumed)` for the next chunk. */
  readonly consumed: number
  /** a close frame arrived. */
  readonly closed: boolean
}

/**
 * Counts the complete server frames at the start of `bytes` (RFC 6455 §5.2
 * header: FIN + opcode, then a 7-, 16- or 64-bit length; server frames are not
 * masked, but a mask key is skipped if present). Control frames other than close
 * are ignored; `onPayload`, when given, sees each data frame's payload as a view
 * (used only during a handshake preamble, never in the measured loop).
 */
export const scanFrames = (bytes: Uint8Array, onPayload?: (opcode: number, payload: Uint8Array) => void): Scan => {
  let at = 0
  let messages = 0
  let closed = false
  const end = bytes.length
  while (end - at >= 2) {
    const b0 = bytes[at]!
    const b1 = bytes[at + 1]!
    let len = b1 & 0x7f
    let head = 2
    if (len === 126) {
      if (end - at < 4) break
      len = (bytes[at + 2]! << 8) | bytes[at + 3]!
      head = 4
    } else if (len === 127) {
      if (end - at < 10) break
      // 2^53 is far beyond anything a benchmark sends; the high word is read as a float.
      len = (bytes[at + 2]! * 2 ** 24 + (bytes[at + 3]! << 16) + (bytes[at + 4]! << 8) + bytes[at + 5]!) * 2 ** 32 +
        bytes[at + 6]! * 2 ** 24 + (bytes[at + 7]! << 16) + (bytes[at + 8]! << 8) + bytes[at + 9]!
      head = 10
    }
    if ((b1 & 0x80) !== 0) head += 4
    if (end - at < head + len) break
    const opcode = b0 & 0x0f
    if (opcode === OPCODE.close) closed = true
    else if (opcode < 0x8 && (b0 & 0x80) !== 0) {
      messages++
      if (onPayload !== undefined) onPayload(opcode, bytes.subarray(at + head, at + head + len))
    }
    at += head + len
  }
  return { messages, consumed: at, closed }
}

const HEAD_END = [13, 10, 13, 10]
const SWITCHING = 'HTTP/1.1 101'

/**
 * What follows the server's answer to an upgrade in `bytes`: the bytes past a `101`'s head,
 * `undefined` while the head is not all there yet, or `false` when the answer is not a `101`.
 */
export const afterUpgradeAnswer = <B extends Uint8Array>(bytes: B): B | undefined | false => {
  let end = -1
  for (let i = 0; i + 4 <= bytes.length && end < 0; i++) {
    if (HEAD_END.every((b, k) => bytes[i + k] === b)) end = i
  }
  if (end < 0) return undefined
  for (let k = 0; k < SWITCHING.length; k++) if (bytes[k] !== SWITCHING.charCodeAt(k)) return false
  return bytes.subarray(end + 4) as B
}

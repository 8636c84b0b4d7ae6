/**
 * The least work a socket server can do for the benchmark's contract, as plain functions
 * over `Uint8Array`, shared by the raw ceilings on Bun (`raw-bun.ts`) and Deno
 * (`raw-deno.ts`): count request heads and answer each with the same canned response;
 * recognise an upgrade and answer 101; turn complete masked client frames into unmasked
 * server frames. No validation, no limits: a yardstick, not a server. Pure apart from
 * the SHA-1 of the accept key (`node:crypto`, which Bun and Deno both provide).
 */
import { createHash } from 'node:crypto'

const RESPONSE = new TextEncoder().encode(
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"hello":"world"}',
)
const CR = 13
const LF = 10
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

/** Pre-built answers for up to 32 pipelined requests, so that a batch is one write. */
export const BATCHES: readonly Uint8Array[] = Array.from({ length: 33 }, (_, n) => {
  const batch = new Uint8Array(n * RESPONSE.length)
  for (let i = 0; i < n; i++) batch.set(RESPONSE, i * RESPONSE.length)
  return batch
})

/** Per connection: how many bytes of CR LF CR LF the previous chunk ended with. */
export interface HeadState {
  matched: number
}

/** The request heads (each CR LF CR LF) that `chunk` completes. */
export const countHeads = (state: HeadState, chunk: Uint8Array): number => {
  let matched = state.matched
  let heads = 0
  for (let i = 0; i < chunk.length; i++) {
    const b = chunk[i]
    if (b === (matched % 2 === 0 ? CR : LF)) {
      matched++
      if (matched === 4) {
        heads++
        matched = 0
      }
    } else matched = b === CR ? 1 : 0
  }
  state.matched = matched
  return heads
}

/** The upgrade request in a connection's first chunk, if it is one: its head as text. */
export const upgradeHead = (chunk: Uint8Array): string | undefined => {
  if (chunk[0] !== 0x47 /* G */ || chunk.length >= 4096) return undefined
  const head = new TextDecoder('latin1').decode(chunk)
  return /upgrade:\s*websocket/i.test(head) ? head : undefined
}

/** The 101 answer to an upgrade head (RFC 6455 §4.2.2: SHA-1 of the key and the GUID, base64). */
export const switchingProtocols = (head: string): Uint8Array => {
  const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? ''
  const accept = createHash('sha1').update(key + GUID).digest('base64')
  return new TextEncoder().encode(
    `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
  )
}

/** Per connection: the bytes of an incomplete frame carried to the next chunk. */
export interface FrameState {
  pending: Uint8Array | undefined
}

/**
 * The unmasked server frames, joined into one array, for the complete masked data
 * frames of `pending + chunk` (RFC 6455 §5.2: FIN/opcode, a 7-, 16- or 64-bit length,
 * the 4-byte mask key, the payload XORed with it); control frames are dropped. Keeps
 * what is incomplete for the next chunk. Empty when no frame is complete.
 */
export const echoFrames = (state: FrameState, chunk: Uint8Array): Uint8Array => {
  let bytes = chunk
  if (state.pending !== undefined) {
    bytes = new Uint8Array(state.pending.length + chunk.length)
    bytes.set(state.pending)
    bytes.set(chunk, state.pending.length)
  }
  // An unmasked frame is 4 bytes shorter than its masked form: the output never outgrows the input.
  const out = new Uint8Array(bytes.length)
  let written = 0
  let at = 0
  while (bytes.length - at >= 6) {
    const b0 = bytes[at]!
    let len = bytes[at + 1]! & 0x7f
    const head = len === 126 ? 4 : len === 127 ? 10 : 2
    if (bytes.length - at < head + 4) break
    // A 64-bit length: only its low 32 bits are read, far beyond any benchmark message.
    if (len === 126) len = (bytes[at + 2]! << 8) | bytes[at + 3]!
    else if (len === 127) len = bytes[at + 6]! * 2 ** 24 + (bytes[at + 7]! << 16) + (bytes[at + 8]! << 8) + bytes[at + 9]!
    if (bytes.length - at < head + 4 + len) break
    const key = at + head
    if ((b0 & 0x0f) < 0x8) {
      out[written] = b0
      out[written + 1] = head === 2 ? len : head === 4 ? 126 : 127
      out.set(bytes.subarray(at + 2, at + head), written + 2)
      const payload = written + head
      for (let i = 0; i < len; i++) out[payload + i] = bytes[key + 4 + i]! ^ bytes[key + (i & 3)]!
      written = payload + len
    }
    at = key + 4 + len
  }
  state.pending = at < bytes.length ? bytes.slice(at) : undefined
  return out.subarray(0, written)
}

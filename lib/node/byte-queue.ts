/**
 * The bytes of one connection that no decoder has consumed yet. Chunks are kept apart
 * until a decoder can make progress: the decoder's "need at least N bytes" answer is
 * remembered, and the chunks are concatenated once when N bytes are there, instead of
 * re-parsing a growing buffer on every chunk (DESIGN §2).
 */

export interface ByteQueue {
  /** Bytes buffered so far. */
  readonly length: number
  /** Adds a chunk; answers whether a decoder should run (enough bytes for the last need). */
  push(chunk: Uint8Array): boolean
  /** Everything buffered as one array (concatenated once, then kept as one chunk). */
  bytes(): Uint8Array
  /** Replaces the buffer with what a decoder left (a view of `bytes()`), and forgets the need. */
  keep(rest: Uint8Array): void
  /** Remembers that a decoder needs at least `n` bytes in total before it can progress. */
  waitFor(n: number): void
  clear(): void
}

const EMPTY = new Uint8Array(0)

// A small rest that pins a big buffer is copied, so one large message does not stay
// resident for the life of the connection.
const PIN_LIMIT = 64 * 1024

export const createByteQueue = (): ByteQueue => {
  let chunks: Uint8Array[] = []
  let length = 0
  let need = 0

  return {
    get length() {
      return length
    },
    push(chunk) {
      if (chunk.length === 0) return length >= need && length > 0
      chunks.push(chunk)
      length += chunk.length
      return length >= need
    },
    bytes() {
      if (chunks.length === 0) return EMPTY
      if (chunks.length === 1) return chunks[0] as Uint8Array
      const all = new Uint8Array(length)
      let at = 0
      for (const c of chunks) {
        all.set(c, at)
        at += c.length
      }
      chunks = [all]
      return all
    },
    keep(rest) {
      need = 0
      length = rest.length
      if (rest.length === 0) chunks = []
      else if (rest.buffer.byteLength > PIN_LIMIT && rest.length * 4 < rest.buffer.byteLength) chunks = [rest.slice()]
      else chunks = [rest]
    },
    waitFor(n) {
      need = n
    },
    clear() {
      chunks = []
      length = 0
      need = 0
    },
  }
}

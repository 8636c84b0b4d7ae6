/**
 * The bytes of one connection that no decoder has consumed yet. Chunks are kept apart
 * until a decoder can make progress: the decoder's "need at least N bytes" answer is
 * remembered, and the chunks are concatenated once when N bytes are there, instead of
 * re-parsing a growing buffer on every chunk (DESIGN §2).
 */

const EMPTY = new Uint8Array(0)

// A small rest that pins a big buffer is copied, so one large message does not stay
// resident for the life of the connection.
const PIN_LIMIT = 64 * 1024

// A class, not a closure record: every connection has one, and its methods live once on
// the prototype instead of once per connection.
export class ByteQueue {
  private chunks: Uint8Array[] | Uint8Array | undefined = undefined
  private size = 0
  private need = 0

  /** Bytes buffered so far. */
  get length(): number {
    return this.size
  }

  /** Adds a chunk; answers whether a decoder should run (enough bytes for the last need). */
  push(chunk: Uint8Array): boolean {
    if (chunk.length === 0) return this.size >= this.need && this.size > 0
    if (this.chunks === undefined) this.chunks = chunk
    else if (Array.isArray(this.chunks)) this.chunks.push(chunk)
    else this.chunks = [this.chunks, chunk]
    this.size += chunk.length
    return this.size >= this.need
  }

  /** Everything buffered as one array (concatenated once, then kept as one chunk). */
  bytes(): Uint8Array {
    const chunks = this.chunks
    if (chunks === undefined) return EMPTY
    if (!Array.isArray(chunks)) return chunks
    const all = new Uint8Array(this.size)
    let at = 0
    for (const c of chunks) {
      all.set(c, at)
      at += c.length
    }
    this.chunks = all
    return all
  }

  /** Replaces the buffer with what a decoder left (a view of `bytes()`), and forgets the need. */
  keep(rest: Uint8Array): void {
    this.need = 0
    this.size = rest.length
    if (rest.length === 0) this.chunks = undefined
    else if (rest.buffer.byteLength > PIN_LIMIT && rest.length * 4 < rest.buffer.byteLength) this.chunks = rest.slice()
    else this.chunks = rest
  }

  /** Remembers that a decoder needs at least `n` bytes in total before it can progress. */
  waitFor(n: number): void {
    this.need = n
  }

  clear(): void {
    this.chunks = undefined
    this.size = 0
    this.need = 0
  }
}


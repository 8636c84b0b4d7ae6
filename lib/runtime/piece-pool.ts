/**
 * `createPiecePool`: read buffers of one size, lent to file readers and given back by the
 * consumer once a socket has taken them (the core's `LentSource`), so a large file is read
 * into the same memory again instead of a fresh 256 KiB buffer per read. Fresh buffers were
 * most of a 1 MiB answer's user CPU on Node: each is memory outside V8's heap that V8 counts,
 * and every few dozen answers that count set off a full mark-and-sweep of the heap
 * (bench/RESULTS.md "Session 13: static files": `perf` showed the collector at a quarter of the
 * server's samples), and each is new pages the kernel faults in and zeroes. At most `max`
 * buffers wait in the pool; a buffer given back to a full pool is left to the collector.
 * Part of the shared runtime layer (lib/runtime/): imports `node:*` only, never an adapter.
 */
import { Buffer } from 'node:buffer'

/** The pool of one reader. */
export interface PiecePool {
  /** A buffer of `length` bytes (at most the pool's size): a pooled one when there is one. */
  take(length: number): Buffer
  /** `piece` (a buffer `take` gave, or a view at its start) is free again; others are ignored. */
  give(piece: Uint8Array): void
  /** Buffers waiting to be taken. */
  readonly idle: number
}

/**
 * @example
 * const pool = createPiecePool({ size: 256 * 1024, max: 32 })
 * const piece = pool.take(1000) // 1,000 bytes at the start of a 256 KiB buffer
 * pool.give(piece)              // taken again by the next read
 */
export const createPiecePool = (options: { readonly size: number; readonly max: number }): PiecePool => {
  const free: ArrayBuffer[] = []
  // The buffers out on loan: only these come back, and each only once.
  const lent = new WeakSet<ArrayBuffer>()
  return {
    take(length) {
      const reused = free.pop()
      // `allocUnsafeSlow`: its own memory, never a slice of Node's shared 8 KiB pool (which
      // `allocUnsafe` uses below 4 KiB, and whose other slices belong to others).
      const memory = reused ?? (Buffer.allocUnsafeSlow(options.size).buffer as ArrayBuffer)
      lent.add(memory)
      return Buffer.from(memory, 0, length)
    },
    give(piece) {
      const memory = piece.buffer
      if (!(memory instanceof ArrayBuffer) || !lent.has(memory) || piece.byteOffset !== 0) return
      lent.delete(memory)
      if (free.length < options.max) free.push(memory)
    },
    get idle() {
      return free.length
    },
  }
}

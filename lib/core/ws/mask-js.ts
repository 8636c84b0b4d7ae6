/**
 * WebSocket masking (RFC 6455 §5.3) in plain JavaScript: the portable path `mask.ts` falls
 * back to where WebAssembly SIMD is missing or refused, and the faster one for short
 * payloads, where a call into WebAssembly and two copies cost more than the XOR itself.
 *
 * Past a few dozen bytes it XORs four bytes at a time through an `Int32Array` view aligned to
 * the underlying buffer. The key is read as 4 bytes at `keyAt` of the array given, so a
 * decoder can point into the frame header instead of cutting the key out.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

// Int32Array reads in platform byte order; the mask word must match it.
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

// Below this the Int32Array view costs more than it saves (small typed arrays live on the
// V8 heap, and asking for their buffer moves them).
const WORDWISE_FROM = 64

// V8 allocates a typed array of at most this many bytes on its own heap, cheaply; a copy that
// fits is built byte by byte rather than by `slice`, which always allocates off the heap.
const ON_HEAP_MAX = 64

// Indexes in the loops below are in range by construction: `!` only informs the type checker.

/**
 * XORs `target[start, end)` in place with the key at `key[keyAt..keyAt+3]`, payload byte 0 at
 * `start`. Only for arrays the caller has just allocated: the core never masks bytes it was
 * given.
 */
export const maskInPlaceJs = (target: Uint8Array, start: number, end: number, key: Uint8Array, keyAt = 0): void => {
  const k0 = key[keyAt]!
  const k1 = key[keyAt + 1]!
  const k2 = key[keyAt + 2]!
  const k3 = key[keyAt + 3]!
  let i = start
  if (end - start >= WORDWISE_FROM) {
    // Byte by byte up to a 4-byte boundary of the underlying buffer, then a word at a time.
    const lead = (4 - ((target.byteOffset + start) & 3)) & 3
    for (let p = 0; p < lead; p++, i++) target[i]! ^= p === 0 ? k0 : p === 1 ? k1 : k2
    // The key rotated by `lead`, packed in platform byte order.
    const k = [k0, k1, k2, k3]
    const r0 = k[lead]!
    const r1 = k[(lead + 1) & 3]!
    const r2 = k[(lead + 2) & 3]!
    const r3 = k[(lead + 3) & 3]!
    const word = LITTLE_ENDIAN ? r0 | (r1 << 8) | (r2 << 16) | (r3 << 24) : (r0 << 24) | (r1 << 16) | (r2 << 8) | r3
    const words = (end - i) >>> 2
    const view = new Int32Array(target.buffer, target.byteOffset + i, words)
    let w = 0
    for (; w + 4 <= words; w += 4) {
      view[w]! ^= word
      view[w + 1]! ^= word
      view[w + 2]! ^= word
      view[w + 3]! ^= word
    }
    for (; w < words; w++) view[w]! ^= word
    i += words * 4
  }
  // The tail (or a short payload): phase of byte i is (i - start) mod 4.
  for (; i < end; i++) {
    const phase = (i - start) & 3
    target[i]! ^= phase === 0 ? k0 : phase === 1 ? k1 : phase === 2 ? k2 : k3
  }
}

/**
 * `source[start, end)` masked with the key at `key[keyAt..keyAt+3]`, as a new array of
 * `headroom + (end - start)` bytes: `headroom` zero bytes (room for a frame header), then the
 * masked bytes, the first of them masked with key byte 0. The source is never modified.
 */
export const maskCopyJs = (source: Uint8Array, start: number, end: number, key: Uint8Array, keyAt: number, headroom = 0): Uint8Array => {
  const length = end - start
  if (headroom + length > ON_HEAP_MAX) {
    let out: Uint8Array
    if (headroom === 0) {
      out = source.slice(start, end)
    } else {
      out = new Uint8Array(headroom + length)
      out.set(source.subarray(start, end), headroom)
    }
    maskInPlaceJs(out, headroom, headroom + length, key, keyAt)
    return out
  }
  const out = new Uint8Array(headroom + length)
  const k0 = key[keyAt]!
  const k1 = key[keyAt + 1]!
  const k2 = key[keyAt + 2]!
  const k3 = key[keyAt + 3]!
  let i = 0
  for (; i + 4 <= length; i += 4) {
    out[headroom + i] = source[start + i]! ^ k0
    out[headroom + i + 1] = source[start + i + 1]! ^ k1
    out[headroom + i + 2] = source[start + i + 2]! ^ k2
    out[headroom + i + 3] = source[start + i + 3]! ^ k3
  }
  for (; i < length; i++) {
    const phase = i & 3
    out[headroom + i] = source[start + i]! ^ (phase === 0 ? k0 : phase === 1 ? k1 : k2)
  }
  return out
}

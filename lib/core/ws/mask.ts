/**
 * WebSocket masking (RFC 6455 §5.3): byte i of the payload is XORed with byte i mod 4 of the
 * 32-bit masking key. Masking twice with the same key gives the bytes back.
 *
 * A `Masker` does it. `JS_MASKER` masks in JavaScript (`mask-js.ts`) and holds nothing: the
 * default of every core function that masks. `createMasker()` makes one that masks longer
 * payloads with WebAssembly SIMD (`mask-simd.ts`) where the engine has it, through a module
 * instance of its own, loaded on first use: the engine makes one per server and passes it in,
 * so no WebAssembly memory is shared between servers and this file keeps no state. Both give
 * the same bytes, and neither touches the caller's bytes: a copy is always a new array.
 *
 * The key is read as 4 bytes at `keyAt` of the array given, so a decoder can point into the
 * frame header instead of cutting the key out.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { maskCopyJs, maskInPlaceJs } from './mask-js.js'
import { loadSimdMask, type SimdMask, simdMaskCopy, simdMaskInto } from './mask-simd.js'

/**
 * A masked copy longer than this (payload plus headroom) goes through WebAssembly SIMD.
 *
 * V8 keeps a typed array of at most 64 bytes on its own heap, where allocating it costs next
 * to nothing; any longer array gets an off-heap buffer, which costs more than copying and
 * masking a kilobyte. So a result of up to 64 bytes is built in JavaScript, on the heap, and
 * anything longer goes through SIMD, whose copy in and call cost less than the JavaScript
 * XOR at every length past that (measured in Node 20, see docs/decisions.md).
 */
export const SIMD_COPY_ABOVE = 64

/**
 * From this many bytes on, masking in place goes through WebAssembly SIMD: below it, copying
 * the bytes in and back out costs more than the JavaScript XOR saves (measured in Node 20).
 */
export const SIMD_IN_PLACE_FROM = 256

/** Masks bytes (RFC 6455 §5.3): `JS_MASKER`, or one from `createMasker` (a server's own). */
export interface Masker {
  /**
   * `source[start, end)` masked with the key at `key[keyAt..keyAt+3]`, as a new array whose
   * byte `headroom` is masked with key byte 0. The first `headroom` bytes (room for a frame
   * header) are zero. The source is never modified, and the result shares no buffer with it
   * or anything else.
   */
  readonly maskCopy: (source: Uint8Array, start: number, end: number, key: Uint8Array, keyAt: number, headroom?: number) => Uint8Array
  /**
   * XORs `target[start, end)` in place, payload byte 0 at `start`. Only for arrays the caller
   * has just allocated: the core never masks bytes it was given.
   */
  readonly maskInPlace: (target: Uint8Array, start: number, end: number, key: Uint8Array, keyAt?: number) => void
  /** The SIMD module this masker uses (loaded by the first call), or `null`: JavaScript only. */
  readonly simd: () => SimdMask | null
}

/** Masks in JavaScript: no WebAssembly, nothing held. */
export const JS_MASKER: Masker = Object.freeze({
  maskCopy: maskCopyJs,
  maskInPlace: maskInPlaceJs,
  simd: (): null => null,
})

// The key as one 32-bit word, key byte 0 in the low byte: the order WebAssembly memory uses.
const keyWord = (key: Uint8Array, keyAt: number): number =>
  key[keyAt]! | (key[keyAt + 1]! << 8) | (key[keyAt + 2]! << 16) | (key[keyAt + 3]! << 24)

/** What `createMasker` takes. */
export interface MaskerOptions {
  /** `false`: mask in JavaScript only (for specs and benchmarks of that path). Default `true`. */
  readonly simd?: boolean
}

/**
 * A masker with a WebAssembly SIMD module of its own (loaded on its first call; where SIMD is
 * unavailable or refused, or `simd: false`, it masks in JavaScript).
 *
 * @example
 * const masker = createMasker()
 * const key = new Uint8Array([0x37, 0xfa, 0x21, 0x3d])
 * maskBytes(new TextEncoder().encode('Hello'), key, masker) // 7f 9f 4d 51 58
 */
export const createMasker = ({ simd = true }: MaskerOptions = {}): Masker => {
  // `undefined`: not tried yet; `null`: tried, unavailable (or switched off).
  let module: SimdMask | null | undefined = simd ? undefined : null
  const ready = (): SimdMask | null => {
    if (module === undefined) module = loadSimdMask()
    return module
  }
  return {
    maskCopy: (source, start, end, key, keyAt, headroom = 0) =>
      (headroom + end - start > SIMD_COPY_ABOVE ? simdMaskCopy(ready(), source, start, end, keyWord(key, keyAt), headroom) : undefined) ??
      maskCopyJs(source, start, end, key, keyAt, headroom),
    maskInPlace: (target, start, end, key, keyAt = 0) => {
      if (end - start >= SIMD_IN_PLACE_FROM && simdMaskInto(ready(), target, start, end, keyWord(key, keyAt), target, start)) return
      maskInPlaceJs(target, start, end, key, keyAt)
    },
    simd: ready,
  }
}

/**
 * The bytes masked (or unmasked: the same operation) with a 4-byte key, as a new array, by
 * `masker` (JavaScript unless a masker is given).
 *
 * @example
 * const key = new Uint8Array([0x37, 0xfa, 0x21, 0x3d])
 * const masked = maskBytes(new TextEncoder().encode('Hello'), key) // 7f 9f 4d 51 58
 * new TextDecoder().decode(maskBytes(masked, key)) // 'Hello'
 */
export const maskBytes = (bytes: Uint8Array, key: Uint8Array, masker: Masker = JS_MASKER): Uint8Array => masker.maskCopy(bytes, 0, bytes.length, key, 0)

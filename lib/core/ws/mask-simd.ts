/**
 * WebSocket masking (RFC 6455 §5.3) through WebAssembly SIMD (`mask-simd.wat`): the fast path
 * `mask.ts` takes for payloads past a few dozen bytes.
 *
 * `loadSimdMask` compiles and instantiates the module synchronously (it is 146 bytes, and
 * imports nothing), after `WebAssembly.validate` says the engine knows SIMD. Where that fails
 * (no WebAssembly, no SIMD, a page's Content-Security-Policy refusing it, memory refused) it
 * answers `null`, every function here answers "unavailable" for `null`, and the caller masks
 * in JavaScript instead. This file keeps no module of its own: a loaded module is a value its
 * owner (a `Masker`, `mask.ts`, one per server) holds and passes in, so two servers, or a core
 * embedded beside another, share no WebAssembly memory.
 *
 * The module never sees the caller's arrays: bytes are copied into its memory, masked there,
 * and copied out into a fresh array (or the caller's target). No result aliases the module's
 * memory, so no `payload.buffer` exposes another payload. Long payloads go through in chunks,
 * which keeps the memory at one page and each chunk in the CPU's L1 cache.
 *
 * Pure and portable: no node:* imports, no Buffer; plain WebAssembly, in every runtime.
 */
import { MASK_SIMD_WASM } from './mask-simd-wasm.js'

interface MaskModule {
  readonly memory: WebAssembly.Memory
  readonly mask: (at: number, end: number, key: number) => void
}

/**
 * The most bytes one pass copies through the module's memory; longer payloads take several.
 * 16 KiB keeps a chunk's source, its masked copy and its destination in a 48 KiB L1 cache:
 * 1 MiB went through in 81 µs in 16 KiB chunks, 112 µs in 64 KiB ones (Node 20, x86-64).
 */
export const SIMD_CHUNK = 16 * 1024

// Payload byte 0 goes here: a multiple of 16, so the loads are aligned and the key word is in
// phase, with room before it for the zeroed headroom `simdMaskCopy` offers (a frame header).
const BASE = 16
const MAX_HEADROOM = BASE
// The module declares one 64 KiB page, and a pass needs BASE + SIMD_CHUNK + 64 bytes of it
// (the loop rounds up to 64), so the memory never grows: nothing to fail, nothing to hold on to.

/** An instantiated SIMD masking module: what `loadSimdMask` answers, passed to the functions below. */
export interface SimdMask {
  readonly mask: MaskModule['mask']
  // A view of the whole memory, made once: reading `memory.buffer` on every call would cost
  // more than a short payload's whole XOR.
  readonly heap: Uint8Array
}

const isMaskModule = (exports: WebAssembly.Exports): exports is WebAssembly.Exports & MaskModule =>
  exports['memory'] instanceof WebAssembly.Memory && typeof exports['mask'] === 'function'

/**
 * A new instance of the SIMD masking module, with memory of its own; `null` where the engine
 * has no WebAssembly SIMD or refuses to compile it.
 *
 * @example
 * const simd = loadSimdMask() // null where WebAssembly SIMD is unavailable
 */
export const loadSimdMask = (): SimdMask | null => {
  try {
    if (typeof WebAssembly !== 'object' || !WebAssembly.validate(MASK_SIMD_WASM)) return null
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(MASK_SIMD_WASM))
    if (!isMaskModule(exports)) return null
    return { mask: exports.mask, heap: new Uint8Array(exports.memory.buffer) }
  } catch {
    // A CSP without 'wasm-unsafe-eval', or an engine that validates but will not compile.
    return null
  }
}

/**
 * `source[start, end)` masked with `word` (key byte 0 in the low byte) into the caller's
 * `target` from `at` on, through `module`'s memory a chunk at a time. `target` may be
 * `source` itself, with `at === start`. Answers `false`, having written nothing, when SIMD is
 * unavailable (`module` is `null`).
 */
export const simdMaskInto = (module: SimdMask | null, source: Uint8Array, start: number, end: number, word: number, target: Uint8Array, at: number): boolean => {
  if (module === null) return false
  const { heap } = module
  // Chunks are multiples of 4 bytes, so every chunk starts in phase with key byte 0.
  for (let from = start; from < end; from += SIMD_CHUNK) {
    const to = Math.min(from + SIMD_CHUNK, end)
    heap.set(source.subarray(from, to), BASE)
    module.mask(BASE, BASE + to - from, word)
    target.set(heap.subarray(BASE, BASE + to - from), at + from - start)
  }
  return true
}

/**
 * `source[start, end)` masked with `word` (key byte 0 in the low byte) as a new array of
 * `headroom + (end - start)` bytes, the first `headroom` zero. `undefined` when SIMD is
 * unavailable (`module` is `null`). The result owns its buffer, exactly that long.
 */
export const simdMaskCopy = (module: SimdMask | null, source: Uint8Array, start: number, end: number, word: number, headroom = 0): Uint8Array | undefined => {
  if (module === null) return undefined
  const length = end - start
  if (length > SIMD_CHUNK || headroom > MAX_HEADROOM) {
    const out = new Uint8Array(headroom + length)
    return simdMaskInto(module, source, start, end, word, out, headroom) ? out : undefined
  }
  const { heap } = module
  heap.set(source.subarray(start, end), BASE)
  module.mask(BASE, BASE + length, word)
  // The headroom must not show what an earlier payload left in the module's memory.
  if (headroom > 0) heap.fill(0, BASE - headroom, BASE)
  // One chunk: `slice` allocates and copies in one step, which measured cheaper than `new`
  // and `set` (1 KiB: 4.3 µs against 5.6 µs, nearly all of it the allocation).
  return heap.slice(BASE - headroom, BASE + length)
}

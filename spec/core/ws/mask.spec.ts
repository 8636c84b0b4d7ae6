import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createMasker, type Masker, maskBytes as maskBytesWith, SIMD_IN_PLACE_FROM } from '../../../lib/core/ws/mask.js'
import { maskCopyJs, maskInPlaceJs } from '../../../lib/core/ws/mask-js.js'
import { SIMD_CHUNK, simdMaskCopy as simdMaskCopyWith, simdMaskInto as simdMaskIntoWith } from '../../../lib/core/ws/mask-simd.js'
import { hex, toHex, utf8 } from './hex.js'

const KEY = hex('37 fa 21 3d')
const WORD = 0x3d21fa37 // KEY as one little-endian word

// The definition (RFC 6455 §5.3), byte by byte: what every fast path must agree with.
const reference = (bytes: Uint8Array, key: Uint8Array): Uint8Array => bytes.map((b, i) => b ^ key[i & 3]!)

const pattern = (n: number, seed = 0): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 37 + 11 + seed) & 0xff)

// Lengths around every boundary the paths switch at: V8's on-heap arrays (64), the in-place
// SIMD threshold, the 64-byte SIMD loop, and the chunk size.
const LENGTHS = [0, 1, 3, 4, 5, 63, 64, 65, 127, 128, 129, 255, 256, 257, 1000, 1024, SIMD_CHUNK - 1, SIMD_CHUNK, SIMD_CHUNK + 1, 3 * SIMD_CHUNK + 7]

// The masker the checks below go through: a server's (SIMD where the runtime has it), or one
// switched off. Each is its own: no state of the core is switched.
let masker: Masker = createMasker()
const maskBytes = (bytes: Uint8Array, key: Uint8Array): Uint8Array => maskBytesWith(bytes, key, masker)
const maskCopy: Masker['maskCopy'] = (...args) => masker.maskCopy(...args)
const maskInPlace: Masker['maskInPlace'] = (...args) => masker.maskInPlace(...args)
const simdMaskingAvailable = (): boolean => masker.simd() !== null
const simdMaskCopy = (source: Uint8Array, start: number, end: number, word: number, headroom?: number): Uint8Array | undefined =>
  simdMaskCopyWith(masker.simd(), source, start, end, word, headroom)
const simdMaskInto = (source: Uint8Array, start: number, end: number, word: number, target: Uint8Array, at: number): boolean =>
  simdMaskIntoWith(masker.simd(), source, start, end, word, target, at)

// Runs `body` with a masker whose SIMD path is switched off, then with a SIMD one again.
const withoutSimd = (body: () => void): void => {
  masker = createMasker({ simd: false })
  try {
    body()
  } finally {
    masker = createMasker()
  }
}

test('maskBytes :: RFC 6455 §5.7 "Hello" with key 37 fa 21 3d', () => {
  assert.is(toHex(maskBytes(utf8('Hello'), KEY)), '7f 9f 4d 51 58')
})

test('maskBytes :: matches the definition for every length up to 300', () => {
  const source = pattern(300)
  for (let n = 0; n <= 300; n++) {
    const bytes = source.subarray(0, n)
    assert.equal(maskBytes(bytes, KEY), reference(bytes, KEY), `length ${n}`)
  }
})

test('maskBytes :: matches the definition at every path boundary, SIMD or not', () => {
  for (const n of LENGTHS) {
    const bytes = pattern(n)
    assert.equal(maskBytes(bytes, KEY), reference(bytes, KEY), `length ${n}`)
    withoutSimd(() => assert.equal(maskBytes(bytes, KEY), reference(bytes, KEY), `length ${n}, JavaScript`))
  }
})

test('maskBytes :: never changes its input and always returns a new array of its own', () => {
  for (const n of [0, 3, 64, 1000, SIMD_CHUNK + 5]) {
    const bytes = pattern(n)
    const out = maskBytes(bytes, KEY)
    assert.equal(bytes, pattern(n))
    assert.is.not(out.buffer, bytes.buffer)
    // Exactly as long as the payload: `out.buffer` shows nothing else (no pool, no WebAssembly memory).
    assert.is(out.byteOffset, 0)
    assert.is(out.buffer.byteLength, n)
  }
})

test('maskBytes :: a result is not changed by the next call (no shared scratch memory)', () => {
  const first = maskBytes(pattern(500), KEY)
  maskBytes(pattern(500, 99), KEY)
  assert.equal(first, reference(pattern(500), KEY))
})

test('maskCopy :: reads the key in place and the range from any offset', () => {
  const buffer = Uint8Array.from({ length: 400 }, (_, i) => (i * 7) & 0xff)
  for (const start of [0, 1, 2, 3, 5, 6, 14]) {
    const keyAt = start + 1
    const key = buffer.subarray(keyAt, keyAt + 4)
    const out = maskCopy(buffer, start + 5, start + 300, buffer, keyAt)
    assert.equal(out, reference(buffer.subarray(start + 5, start + 300), key), `start ${start}`)
  }
})

test('maskCopy :: leaves `headroom` zero bytes in front, whatever the path', () => {
  // A long payload first, so the SIMD memory holds stale bytes where the headroom is taken from.
  maskBytes(pattern(4000, 5), KEY)
  for (const headroom of [0, 2, 4, 10, 14, 16, 17, 40]) {
    for (const n of [0, 5, 50, 62, 63, 64, 65, 200, SIMD_CHUNK + 3]) {
      const source = pattern(n + 9)
      const expected = new Uint8Array(headroom + n)
      expected.set(reference(source.subarray(9), KEY), headroom)
      assert.equal(maskCopy(source, 9, 9 + n, KEY, 0, headroom), expected, `headroom ${headroom}, length ${n}`)
      assert.equal(maskCopyJs(source, 9, 9 + n, KEY, 0, headroom), expected, `headroom ${headroom}, length ${n}, JavaScript`)
    }
  }
})

test('maskInPlace :: masks a range of an array at every alignment', () => {
  for (const offset of [0, 1, 2, 3]) {
    for (const n of [0, 1, 63, 64, 65, 67, 200, SIMD_IN_PLACE_FROM, SIMD_IN_PLACE_FROM + 3, SIMD_CHUNK + 70]) {
      const whole = Uint8Array.from({ length: offset + n + 8 }, (_, i) => (i * 13) & 0xff)
      const view = whole.subarray(offset)
      const expected = whole.slice()
      expected.set(reference(whole.subarray(offset + 3, offset + 3 + n), KEY), offset + 3)
      maskInPlace(view, 3, 3 + n, KEY)
      assert.equal(whole, expected, `offset ${offset}, length ${n}`)
      const again = whole.slice()
      maskInPlaceJs(again.subarray(offset), 3, 3 + n, KEY)
      maskInPlaceJs(again.subarray(offset), 3, 3 + n, KEY)
      assert.equal(again, expected, `offset ${offset}, length ${n}, JavaScript twice is the identity`)
    }
  }
})

test('simd :: available in this runtime (Node, Bun, Deno and Chromium all have WebAssembly SIMD)', () => {
  assert.ok(simdMaskingAvailable())
})

test('simd :: switched off, every SIMD function answers "unavailable" and masking still works', () => {
  withoutSimd(() => {
    assert.not.ok(simdMaskingAvailable())
    assert.is(simdMaskCopy(pattern(100), 0, 100, WORD), undefined)
    assert.is(simdMaskCopy(pattern(SIMD_CHUNK + 1), 0, SIMD_CHUNK + 1, WORD), undefined)
    const target = pattern(300)
    assert.not.ok(simdMaskInto(target, 0, 300, WORD, target, 0))
    assert.equal(target, pattern(300), 'nothing written')
    maskInPlace(target, 0, 300, KEY)
    assert.equal(target, reference(pattern(300), KEY))
  })
  assert.ok(simdMaskingAvailable())
})

// Replaces one of WebAssembly's functions for the duration of `body`, with a new masker
// before and after so that `body` sees a fresh attempt to load the module.
const withWebAssembly = (name: 'validate' | 'Module', replacement: unknown, body: () => void): void => {
  const wasm = WebAssembly as unknown as Record<string, unknown>
  const original = wasm[name]
  wasm[name] = replacement
  masker = createMasker()
  try {
    body()
  } finally {
    wasm[name] = original
    masker = createMasker()
  }
}

test('simd :: an engine without WebAssembly SIMD (validate says no) falls back to JavaScript', () => {
  withWebAssembly('validate', () => false, () => {
    assert.not.ok(simdMaskingAvailable())
    assert.equal(maskBytes(pattern(1000), KEY), reference(pattern(1000), KEY))
  })
  assert.ok(simdMaskingAvailable())
})

test('simd :: a refused compilation (a page CSP without wasm-unsafe-eval) falls back to JavaScript', () => {
  const refuse = function Module(): never {
    throw new Error('WebAssembly.Module(): Refused to compile or instantiate WebAssembly module')
  }
  withWebAssembly('Module', refuse, () => {
    assert.not.ok(simdMaskingAvailable())
    assert.equal(maskBytes(pattern(1000), KEY), reference(pattern(1000), KEY))
  })
  assert.ok(simdMaskingAvailable())
})

test.run()

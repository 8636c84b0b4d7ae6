import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { maskBytes, maskCopy, maskInPlace } from '../../../lib/core/ws/mask.js'
import { hex, toHex, utf8 } from './hex.js'

const KEY = hex('37 fa 21 3d')

// The definition (RFC 6455 §5.3), byte by byte: what every fast path must agree with.
const reference = (bytes: Uint8Array, key: Uint8Array): Uint8Array => bytes.map((b, i) => b ^ key[i & 3]!)

test('maskBytes :: RFC 6455 §5.7 "Hello" with key 37 fa 21 3d', () => {
  assert.is(toHex(maskBytes(utf8('Hello'), KEY)), '7f 9f 4d 51 58')
})

test('maskBytes :: matches the definition for every length up to 300', () => {
  const source = Uint8Array.from({ length: 300 }, (_, i) => (i * 37 + 11) & 0xff)
  for (let n = 0; n <= 300; n++) {
    const bytes = source.subarray(0, n)
    assert.equal(maskBytes(bytes, KEY), reference(bytes, KEY), `length ${n}`)
  }
})

test('maskBytes :: never changes its input and always returns a new array', () => {
  for (const n of [0, 3, 64, 1000]) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => i & 0xff)
    const out = maskBytes(bytes, KEY)
    assert.equal(bytes, Uint8Array.from({ length: n }, (_, i) => i & 0xff))
    assert.is.not(out.buffer, bytes.buffer)
  }
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

test('maskInPlace :: masks a range of an array at every alignment', () => {
  for (const offset of [0, 1, 2, 3]) {
    for (const n of [0, 1, 63, 64, 65, 67, 200]) {
      const whole = Uint8Array.from({ length: offset + n + 8 }, (_, i) => (i * 13) & 0xff)
      const view = whole.subarray(offset)
      const expected = whole.slice()
      expected.set(reference(whole.subarray(offset + 3, offset + 3 + n), KEY), offset + 3)
      maskInPlace(view, 3, 3 + n, KEY)
      assert.equal(whole, expected, `offset ${offset}, length ${n}`)
    }
  }
})

test.run()

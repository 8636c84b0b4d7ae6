import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { createWordViews, LONG_RUN, outsideVisible, wordsFor, wordView } from '../../../lib/core/http/word-view.js'

const views = createWordViews()

// The reference: some byte of the four outside SP..~ (0x20-0x7E).
const outsideByBytes = (b: readonly number[]): boolean => b.some((x) => x < 0x20 || x > 0x7e)
const wordOf = (b: readonly number[]): number => new DataView(Uint8Array.from(b).buffer).getInt32(0, true)

test('outsideVisible :: every byte value at every position of a word of visible bytes', () => {
  for (const fill of [0x20, 0x41, 0x7e]) {
    for (let at = 0; at < 4; at++) {
      for (let x = 0; x < 256; x++) {
        const b = [fill, fill, fill, fill]
        b[at] = x
        assert.is(outsideVisible(wordOf(b)), outsideByBytes(b), `0x${x.toString(16)} at ${at} among 0x${fill.toString(16)}`)
      }
    }
  }
})

test('outsideVisible :: agrees with the bytes for any word (random, edge bytes likelier)', () => {
  const byte = fc.oneof(fc.integer({ min: 0, max: 255 }), fc.constantFrom(0x00, 0x09, 0x0d, 0x1f, 0x20, 0x7e, 0x7f, 0x80, 0xff))
  fc.assert(fc.property(fc.array(byte, { minLength: 4, maxLength: 4 }), (b) => outsideVisible(wordOf(b)) === outsideByBytes(b)), { numRuns: 5000 })
})

test('wordView :: reads exactly the bytes of the array, at any offset of its buffer, the same view again for the same array', () => {
  const buffer = new Uint8Array([9, 9, 9, 0x48, 0x54, 0x54, 0x50, 9]).buffer
  const bytes = new Uint8Array(buffer, 3, 4)
  const view = wordView(views, bytes)
  assert.is(view.getInt32(0, true), 0x50545448)
  assert.is(view.byteLength, 4)
  assert.is(wordView(views, bytes), view)
  const other = new Uint8Array([1, 2, 3, 4])
  assert.is(wordView(views, other).getInt32(0, true), 0x04030201)
  assert.throws(() => wordView(views, bytes).getInt32(1, true))
})

test('wordsFor :: a view for a long run or for the array viewed last; none for a short run of another array', () => {
  const a = new Uint8Array(200)
  const b = new Uint8Array(200)
  assert.is(wordsFor(views, a, LONG_RUN - 1), undefined)
  const view = wordsFor(views, a, LONG_RUN)
  assert.ok(view !== undefined && view.byteLength === 200)
  assert.is(wordsFor(views, a, 1), view)
  assert.is(wordsFor(views, b, 4), undefined)
  assert.is(wordsFor(views, a, 4), view)
})

test.run()

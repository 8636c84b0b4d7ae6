import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { isValidCloseCode } from '../../../lib/core/ws/close-code.js'
import { buildClosePayload, parseClosePayload } from '../../../lib/core/ws/close-payload.js'
import { hex, toHex, utf8 } from './hex.js'

const codeBytes = (code: number): Uint8Array => Uint8Array.of(code >>> 8, code & 0xff)

test('parseClosePayload :: empty means no code', () => {
  assert.equal(parseClosePayload(new Uint8Array(0)), E.right({ code: undefined, reason: '' }))
})

test('parseClosePayload :: a code and a UTF-8 reason', () => {
  assert.equal(parseClosePayload(hex('03 e8 62 79 65')), E.right({ code: 1000, reason: 'bye' }))
  assert.equal(parseClosePayload(hex('0f a0 c3 a9')), E.right({ code: 4000, reason: 'é' }))
})

test('parseClosePayload :: a one-byte payload is 1002', () => {
  const err = parseClosePayload(hex('03'))
  assert.equal(E.isLeft(err) && [err.left._tag, err.left.closeCode], ['ClosePayloadTooShort', 1002])
})

test('parseClosePayload :: accepts exactly 1000–1003, 1007–1014 and 3000–4999', () => {
  const valid = [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999]
  for (const code of valid) assert.ok(E.isRight(parseClosePayload(codeBytes(code))), String(code))
})

test('parseClosePayload :: rejects every other code with 1002', () => {
  const invalid = [0, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535]
  for (const code of invalid) {
    const err = parseClosePayload(codeBytes(code))
    assert.equal(E.isLeft(err) && err.left, { _tag: 'InvalidCloseCode', code, closeCode: 1002, reason: `invalid close code ${code}` })
  }
})

test('parseClosePayload :: a reason that is not UTF-8 is 1007', () => {
  const err = parseClosePayload(hex('03 e8 c3 28'))
  assert.equal(E.isLeft(err) && [err.left._tag, err.left.closeCode], ['InvalidUtf8', 1007])
})

test('isValidCloseCode :: agrees on the boundaries', () => {
  assert.equal([999, 1000, 1003, 1004, 1006, 1007, 1014, 1015, 2999, 3000, 4999, 5000].map(isValidCloseCode), [
    false, true, true, false, false, true, true, false, false, true, true, false,
  ])
})

test('buildClosePayload :: code then reason', () => {
  assert.is(toHex(buildClosePayload(1000, 'bye')), '03 e8 62 79 65')
  assert.is(toHex(buildClosePayload(1009)), '03 f1')
})

test('buildClosePayload :: no code, or a code that may not be sent, gives an empty payload', () => {
  assert.is(buildClosePayload(undefined).length, 0)
  assert.is(buildClosePayload(1005, 'x').length, 0)
  assert.is(buildClosePayload(1006).length, 0)
})

test('buildClosePayload :: cuts a long reason to 123 bytes at a code point boundary', () => {
  const ascii = buildClosePayload(1000, 'x'.repeat(200))
  assert.is(ascii.length, 125)
  const euros = buildClosePayload(1000, '€'.repeat(50)) // 3 bytes each: 41 fit in 123
  assert.is(euros.length, 2 + 123)
  const mixed = buildClosePayload(1000, `${'a'.repeat(122)}€`) // the € would straddle the limit
  assert.equal(mixed.subarray(2), utf8('a'.repeat(122)))
  assert.equal(parseClosePayload(mixed), E.right({ code: 1000, reason: 'a'.repeat(122) }))
})

test.run()

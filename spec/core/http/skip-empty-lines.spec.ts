import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { left, right } from 'fp-ts/lib/Either.js'
import { bareCr, bareLf, tooManyEmptyLines } from '../../../lib/core/http/http-error.js'
import { MAX_EMPTY_LINES, skipEmptyLines } from '../../../lib/core/http/skip-empty-lines.js'

const hex = (s: string): Uint8Array => Uint8Array.from(s.split(' '), (b) => parseInt(b, 16))

// RFC 9112 §2.2: "a server that is expecting to receive and parse a request-line SHOULD
// ignore at least one empty line (CRLF) received prior to the request-line."
test('skipEmptyLines :: the offset after up to two empty lines', () => {
  assert.equal(skipEmptyLines(hex('47 45 54')), right(0))
  assert.equal(skipEmptyLines(hex('0d 0a 47')), right(2))
  assert.equal(skipEmptyLines(hex('0d 0a 0d 0a 47')), right(4))
  assert.equal(skipEmptyLines(new Uint8Array(0)), right(0))
})

test('skipEmptyLines :: a buffer ending inside the empty lines stops where it ends', () => {
  assert.equal(skipEmptyLines(hex('0d')), right(0))
  assert.equal(skipEmptyLines(hex('0d 0a')), right(2))
  assert.equal(skipEmptyLines(hex('0d 0a 0d')), right(2))
  assert.equal(skipEmptyLines(hex('0d 0a 0d 0a')), right(4))
})

test('skipEmptyLines :: a third empty line, a bare LF or a CR without LF is refused at its byte', () => {
  assert.is(MAX_EMPTY_LINES, 2)
  assert.equal(skipEmptyLines(hex('0d 0a 0d 0a 0d')), left(tooManyEmptyLines(2)))
  assert.equal(skipEmptyLines(hex('0d 0a 0d 0a 0a')), left(tooManyEmptyLines(2)))
  assert.equal(skipEmptyLines(hex('0a 47')), left(bareLf(0)))
  assert.equal(skipEmptyLines(hex('0d 0a 0a')), left(bareLf(2)))
  assert.equal(skipEmptyLines(hex('0d 47')), left(bareCr(0)))
  assert.equal(skipEmptyLines(hex('0d 0a 0d 0d')), left(bareCr(2)))
})

test.run()

/**
 * `BodyIntake`: a streamed request body read off the socket's reads through `readBodyPiece`:
 * data handed to the `RequestBody`, what follows the body given back, framing lines cut
 * between reads carried, the limit and framing errors failing the body. Every body is also fed
 * one byte at a time. Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { BodyStreamError } from '../../../lib/core/http/body-stream.js'
import { bodyIncomplete } from '../../../lib/core/http/http-error.js'
import type { Framing } from '../../../lib/core/http/parse-head.js'
import { startBody } from '../../../lib/core/http/read-body-piece.js'
import { BodyIntake, type IntakeStep } from '../../../lib/engine/http/body-intake.js'
import { RequestBody } from '../../../lib/engine/http/request-body.js'

const enc = new TextEncoder()
const dec = new TextDecoder()
const NOOP = { pause: () => undefined, resume: () => undefined, started: () => undefined, abandoned: () => undefined }

const intakeOf = (framing: Framing, maxBody = 1000): BodyIntake => {
  const reader = E.getOrElseW(() => assert.unreachable('starts') as never)(startBody(framing, maxBody))
  const length = framing._tag === 'Length' ? framing.length : undefined
  return new BodyIntake(3, new RequestBody(length, NOOP), reader, { maxBody, maxHeaderBytes: 64 }, 0)
}

// Feeds `wire` in pieces of `size` bytes; answers the last step, what came after and the body read.
const feed = async (intake: BodyIntake, wire: string, size: number): Promise<{ step: IntakeStep; body: string | Error }> => {
  const bytes = enc.encode(wire)
  let step: IntakeStep = { _tag: 'More' }
  for (let at = 0; at < bytes.length && step._tag === 'More'; at += size) step = intake.feed(bytes.subarray(at, at + size), at)
  // What a piece-wise feed gives after the body is only the rest of that piece: the spec asks for whole-feed rests.
  const body = await intake.body.text().catch((e: Error) => e)
  return { step, body }
}

const CASES: readonly { name: string; framing: Framing; wire: string; body: string; rest: string }[] = [
  { name: 'Content-Length', framing: { _tag: 'Length', length: 5 }, wire: 'hello', body: 'hello', rest: '' },
  { name: 'Content-Length with the next request after it', framing: { _tag: 'Length', length: 3 }, wire: 'abcGET / HTTP/1.1\r\n', body: 'abc', rest: 'GET / HTTP/1.1\r\n' },
  { name: 'chunked', framing: { _tag: 'Chunked' }, wire: '3\r\nabc\r\n2;ext=1\r\nde\r\n0\r\n\r\n', body: 'abcde', rest: '' },
  { name: 'chunked with trailers and a next request', framing: { _tag: 'Chunked' }, wire: '1\r\nz\r\n0\r\nX-T: 1\r\n\r\nNEXT', body: 'z', rest: 'NEXT' },
  { name: 'no body', framing: { _tag: 'NoBody' }, wire: 'NEXT', body: '', rest: 'NEXT' },
]

for (const c of CASES) {
  test(`BodyIntake :: ${c.name}, whole and byte by byte`, async () => {
    const whole = await feed(intakeOf(c.framing), c.wire, c.wire.length)
    assert.is(whole.step._tag, 'Done')
    assert.is(dec.decode((whole.step as { rest: Uint8Array }).rest), c.rest)
    assert.is(whole.body, c.body)
    const bytewise = await feed(intakeOf(c.framing), c.wire, 1)
    assert.is(bytewise.step._tag, 'Done')
    assert.is(bytewise.body, c.body)
  })
}

test('BodyIntake :: a chunk size line cut between reads is carried', async () => {
  const intake = intakeOf({ _tag: 'Chunked' })
  assert.is(intake.feed(enc.encode('1'), 1)._tag, 'More')
  assert.is(intake.feed(enc.encode('0\r'), 2)._tag, 'More')
  assert.is(intake.feed(enc.encode('\n0123456789abcdef\r\n0\r\n\r\nREST'), 3)._tag, 'Done')
  assert.is(await intake.body.text(), '0123456789abcdef')
  assert.is(intake.lastAt, 3)
})

test('BodyIntake :: a chunked body past the limit fails with 413 as the size is read', async () => {
  const intake = intakeOf({ _tag: 'Chunked' }, 4)
  assert.is(intake.feed(enc.encode('3\r\nabc\r\n'), 1)._tag, 'More')
  const step = intake.feed(enc.encode('2\r\nde'), 2)
  assert.is(step._tag, 'Failed')
  assert.is(step._tag === 'Failed' && step.error.status, 413)
  const error = await intake.body.text().catch((e: unknown) => e)
  assert.ok(error instanceof BodyStreamError)
  assert.is((error as BodyStreamError).error._tag, 'BodyTooLarge')
})

test('BodyIntake :: a bad chunk size fails with 400', async () => {
  const intake = intakeOf({ _tag: 'Chunked' })
  const step = intake.feed(enc.encode('zz\r\n'), 1)
  assert.is(step._tag, 'Failed')
  assert.is(step._tag === 'Failed' && step.error._tag, 'InvalidChunk')
})

test('BodyIntake :: cut: the body fails with what it was cut with', async () => {
  const intake = intakeOf({ _tag: 'Length', length: 10 })
  assert.is(intake.feed(enc.encode('abc'), 1)._tag, 'More')
  intake.cut(bodyIncomplete(3))
  const error = await intake.body.text().catch((e: unknown) => e)
  assert.ok(error instanceof BodyStreamError)
  assert.is((error as BodyStreamError).error._tag, 'BodyIncomplete')
  assert.is(intake.exchange, 3)
})

test.run()

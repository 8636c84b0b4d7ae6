/**
 * `RequestBody`: a streamed request body fed by the connection and read once by the handler
 * (async iteration, a ReadableStream, or whole), pausing the socket once `HIGH_WATER` bytes are
 * held and resuming once the handler took half of them, asking for `100 Continue` on the first
 * read, failing with `BodyStreamError`, and telling the connection when it is abandoned.
 * Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BodyStreamError } from '../../../lib/core/http/body-stream.js'
import { bodyIncomplete, bodyTooLarge } from '../../../lib/core/http/http-error.js'
import { type BodyControl, HIGH_WATER, RequestBody } from '../../../lib/engine/http/request-body.js'

const enc = new TextEncoder()

const controlled = (length?: number): { body: RequestBody; calls: string[] } => {
  const calls: string[] = []
  const control: BodyControl = {
    pause: () => void calls.push('pause'),
    resume: () => void calls.push('resume'),
    started: () => void calls.push('started'),
    abandoned: () => void calls.push('abandoned'),
  }
  return { body: new RequestBody(length, control), calls }
}

const text = (chunks: readonly Uint8Array[]): string => new TextDecoder().decode(Uint8Array.from(chunks.flatMap((c) => [...c])))

test('RequestBody :: pieces pushed before and while reading come out in order, then done', async () => {
  const { body, calls } = controlled(6)
  assert.is(body.length, 6)
  body.push(enc.encode('ab'))
  const it = body[Symbol.asyncIterator]()
  assert.equal(calls, [], 'nothing asked before the first read')
  const first = await it.next()
  assert.equal(calls, ['started'])
  assert.is(text([first.value as Uint8Array]), 'ab')
  const waiting = it.next()
  body.push(enc.encode('cd'))
  assert.is(text([(await waiting).value as Uint8Array]), 'cd')
  body.push(enc.encode('ef'))
  body.end()
  assert.ok(body.complete)
  assert.is(text([(await it.next()).value as Uint8Array]), 'ef')
  assert.equal(await it.next(), { done: true, value: undefined })
  assert.equal(calls, ['started'], 'started once')
  assert.not.ok(body.unread)
  assert.is(body.received, 6)
})

test('RequestBody :: empty pieces and pieces after the end are ignored', async () => {
  const { body } = controlled()
  body.push(new Uint8Array(0))
  body.push(enc.encode('x'))
  body.end()
  body.end()
  body.push(enc.encode('late'))
  assert.is(body.received, 1)
  assert.is(await body.text(), 'x')
})

test('RequestBody :: a waiting read ends when the body does', async () => {
  const { body } = controlled()
  const it = body[Symbol.asyncIterator]()
  const waiting = it.next()
  body.end()
  assert.equal(await waiting, { done: true, value: undefined })
})

test('RequestBody :: pauses the socket once HIGH_WATER is held, resumes at half', async () => {
  const { body, calls } = controlled()
  const piece = new Uint8Array(64 * 1024)
  let held = 0
  while (held < HIGH_WATER) {
    body.push(piece)
    held += piece.length
  }
  assert.equal(calls, ['pause'])
  assert.is(held, HIGH_WATER, 'paused by the piece that reached HIGH_WATER')
  body.push(piece)
  held += piece.length
  assert.equal(calls, ['pause'], 'paused once')
  const it = body[Symbol.asyncIterator]()
  while (!calls.includes('resume')) {
    await it.next()
    held -= piece.length
  }
  assert.ok(held <= HIGH_WATER / 2 && held + piece.length > HIGH_WATER / 2, `resumed at HIGH_WATER / 2 (${held} held)`)
  assert.equal(calls, ['pause', 'started', 'resume'])
})

test('RequestBody :: a waiting read takes a piece pushed while paused at once', async () => {
  const { body, calls } = controlled()
  body.push(new Uint8Array(HIGH_WATER + 1))
  assert.equal(calls, ['pause'])
  const it = body[Symbol.asyncIterator]()
  await it.next()
  assert.equal(calls, ['pause', 'started', 'resume'])
  const waiting = it.next()
  body.push(enc.encode('z'))
  assert.is(text([(await waiting).value as Uint8Array]), 'z')
})

test('RequestBody :: a failure rejects the waiting read and every read after with BodyStreamError', async () => {
  const { body } = controlled()
  body.push(enc.encode('dropped'))
  const it = body[Symbol.asyncIterator]()
  await it.next()
  const waiting = it.next()
  body.fail(bodyIncomplete(7))
  body.fail(bodyTooLarge(1)) // the first failure stays
  body.end() // and the body does not end after it
  try {
    await waiting
    assert.unreachable('rejects')
  } catch (error) {
    assert.ok(error instanceof BodyStreamError)
    assert.is((error as BodyStreamError).error._tag, 'BodyIncomplete')
    assert.is((error as BodyStreamError).error.status, 400)
  }
  try {
    await it.next()
    assert.unreachable('rejects again')
  } catch (error) {
    assert.ok(error instanceof BodyStreamError)
  }
  assert.not.ok(body.complete)
  assert.ok(body.unread)
})

test('RequestBody :: a failure after the end changes nothing', async () => {
  const { body } = controlled()
  body.push(enc.encode('ok'))
  body.end()
  body.fail(bodyTooLarge(1))
  assert.is(await body.text(), 'ok')
})

test('RequestBody :: read once, one way: a second reader is a TypeError', () => {
  const { body } = controlled()
  body[Symbol.asyncIterator]()
  assert.throws(() => body.stream(), TypeError)
  assert.throws(() => body[Symbol.asyncIterator](), /read it once/)
})

test('RequestBody :: return() before the end abandons the body (and once only)', async () => {
  const { body, calls } = controlled()
  body.push(enc.encode('a'))
  const it = body[Symbol.asyncIterator]()
  await it.next()
  assert.equal(await it.return?.(), { done: true, value: undefined })
  await it.return?.()
  assert.equal(calls, ['started', 'abandoned'])
  assert.equal(await it.next(), { done: true, value: undefined })
  body.push(enc.encode('ignored'))
  assert.is(body.received, 1)
})

test('RequestBody :: return() after the end is no abandon', async () => {
  const { body, calls } = controlled()
  body.end()
  const it = body[Symbol.asyncIterator]()
  await it.return?.()
  assert.equal(calls, [])
})

test('RequestBody :: as a ReadableStream, and cancelling it abandons the body', async () => {
  const { body } = controlled()
  body.push(enc.encode('he'))
  body.push(enc.encode('llo'))
  body.end()
  const got = await new Response(body.stream()).text()
  assert.is(got, 'hello')
  const other = controlled()
  other.body.push(enc.encode('x'))
  const reader = other.body.stream().getReader()
  assert.is(text([(await reader.read()).value as Uint8Array]), 'x')
  await reader.cancel()
  assert.equal(other.calls, ['started', 'abandoned'])
})

test('RequestBody :: bytes() and text() join the pieces (one piece as it is)', async () => {
  const one = controlled()
  const only = enc.encode('solo')
  one.body.push(only)
  one.body.end()
  assert.is(await one.body.bytes(), only)
  const many = controlled()
  many.body.push(enc.encode('a'))
  many.body.push(enc.encode('bc'))
  many.body.end()
  assert.is(await many.body.text(), 'abc')
  const none = controlled()
  none.body.end()
  assert.is((await none.body.bytes()).length, 0)
})

test.run()

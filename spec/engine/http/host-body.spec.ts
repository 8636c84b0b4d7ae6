import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BodyStreamError } from '../../../lib/core/http/body-stream.js'
import type { HttpError } from '../../../lib/core/http/http-error.js'
import { type HostBody, hostBodyStream } from '../../../lib/engine/http/host-body.js'

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

async function* pieces(...parts: string[]): AsyncGenerator<Uint8Array> {
  for (const part of parts) yield enc(part)
}

// The whole body, or the error its sender gets, read with `bytes()` as a route that takes its
// body whole reads it (the glue's `readHostBody` did the same, and was folded into this).
const readHostBody = (source: HostBody, maxBody: number, length?: number): Promise<E.Either<HttpError, Uint8Array>> =>
  hostBodyStream(source, maxBody, length)
    .bytes()
    .then(
      (bytes) => E.right(bytes),
      (error: unknown) => E.left((error as BodyStreamError).error),
    )

async function* cut(): AsyncGenerator<Uint8Array> {
  yield enc('ab')
  throw new Error('the client went away')
}

test('readHostBody :: the pieces joined; none: empty', async () => {
  assert.equal(await readHostBody(pieces('ab', 'cd'), 10), E.right(enc('abcd')))
  assert.equal(await readHostBody(pieces('ab'), 10), E.right(enc('ab')))
  assert.equal(await readHostBody(pieces(), 10), E.right(new Uint8Array(0)))
})

test('readHostBody :: past maxBody (announced or received): 413; cut off: 400 body_incomplete', async () => {
  const announced = await readHostBody(pieces('x'), 4, 5)
  assert.ok(E.isLeft(announced) && announced.left._tag === 'BodyTooLarge' && announced.left.status === 413)
  const received = await readHostBody(pieces('abc', 'de'), 4)
  assert.ok(E.isLeft(received) && received.left._tag === 'BodyTooLarge')
  const gone = await readHostBody(cut(), 10)
  assert.ok(E.isLeft(gone) && gone.left._tag === 'BodyIncomplete' && gone.left.status === 400)
})

test('hostBodyStream :: read once, any one way: iterate, bytes, text, stream()', async () => {
  const iterated: string[] = []
  for await (const piece of hostBodyStream(pieces('a', 'b'), 10, 2)) iterated.push(new TextDecoder().decode(piece))
  assert.equal(iterated, ['a', 'b'])
  assert.equal(await hostBodyStream(pieces('a', 'b'), 10, undefined).bytes(), enc('ab'))
  assert.is(await hostBodyStream(pieces('hé'), 10, undefined).text(), 'hé')
  const reader = hostBodyStream(pieces('x', 'y'), 10, undefined).stream().getReader()
  const read: number[] = []
  for (let step = await reader.read(); step.done !== true; step = await reader.read()) read.push(...step.value)
  assert.equal(read, [...enc('xy')])
  const cancelled = hostBodyStream(pieces('x', 'y'), 10, undefined).stream()
  await cancelled.cancel()
  const twice = hostBodyStream(pieces('a'), 10, 1)
  await twice.bytes()
  assert.throws(() => twice[Symbol.asyncIterator](), /read it once/)
  assert.is(twice.length, 1)
})

test('hostBodyStream :: past the limit or cut off: BodyStreamError with the status', async () => {
  try {
    hostBodyStream(pieces('x'), 4, 5)[Symbol.asyncIterator]()
    assert.unreachable()
  } catch (error) {
    assert.ok(error instanceof BodyStreamError && error.error.status === 413)
  }
  for (const [body, status] of [[hostBodyStream(pieces('abc', 'de'), 4, undefined), 413], [hostBodyStream(cut(), 10, undefined), 400]] as const) {
    try {
      await body.bytes()
      assert.unreachable()
    } catch (error) {
      assert.ok(error instanceof BodyStreamError && error.error.status === status)
    }
  }
})

test.run()

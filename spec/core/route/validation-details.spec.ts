import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import { validationDetails } from '../../../lib/core/route/validation-details.js'

const errorsOf = <A>(codec: t.Decoder<unknown, A>, value: unknown): t.Errors => {
  const result = codec.decode(value)
  return E.isLeft(result) ? result.left : (assert.unreachable('must fail') as never)
}

test('validationDetails :: dotted paths from the root with the expected type', () => {
  const Msg = t.type({ room: t.string, tags: t.array(t.string), meta: t.type({ n: t.number }) })
  assert.equal(validationDetails(errorsOf(Msg, { room: 1, tags: ['a', 2], meta: {} })), [
    { path: 'room', expected: 'string' },
    { path: 'tags.1', expected: 'string' },
    { path: 'meta.n', expected: 'number' },
  ])
})

test('validationDetails :: each failing place once; an error without context is "unknown" at the root', () => {
  const twice = errorsOf(t.type({ a: t.string }), { a: 1 })
  assert.equal(validationDetails([...twice, ...twice]), [{ path: 'a', expected: 'string' }])
  assert.equal(validationDetails([{ value: 1, context: [] }]), [{ path: '', expected: 'unknown' }])
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { booleanParam, intParam, numberParam, uuidParam } from '../../../lib/core/route/param-codecs.js'

const decoded = (codec: { decode(u: unknown): E.Either<unknown, unknown> }, input: unknown): unknown => {
  const result = codec.decode(input)
  return E.isRight(result) ? result.right : 'FAIL'
}

test('intParam :: canonical decimal safe integers only', () => {
  assert.equal(['0', '42', '-7', '9007199254740991'].map((s) => decoded(intParam, s)), [0, 42, -7, 9007199254740991])
  for (const bad of ['', ' 1', '1 ', '01', '-0', '+1', '1e3', '4.0', '0x10', '9007199254740993', 'abc', 42, undefined]) {
    assert.is(decoded(intParam, bad), 'FAIL', JSON.stringify(bad))
  }
  assert.is(intParam.encode(42), '42')
  assert.is(intParam.name, 'integer')
  assert.equal(intParam.jsonSchema, { type: 'integer' })
})

test('numberParam :: JSON number notation, finite', () => {
  assert.equal(['1.5', '-2e3', '0'].map((s) => decoded(numberParam, s)), [1.5, -2000, 0])
  for (const bad of ['', '.5', '1.', 'Infinity', 'NaN', '1e999', ' 1']) assert.is(decoded(numberParam, bad), 'FAIL', bad)
})

test('booleanParam :: true and false exactly', () => {
  assert.equal([decoded(booleanParam, 'true'), decoded(booleanParam, 'false')], [true, false])
  for (const bad of ['TRUE', '1', '0', 'yes', '']) assert.is(decoded(booleanParam, bad), 'FAIL', bad)
  assert.is(booleanParam.encode(false), 'false')
})

test('uuidParam :: 8-4-4-4-12 hex, either case, kept as sent', () => {
  const id = '0B9E4C1E-6a7f-4f0e-9f43-2f1d6c3b8a11'
  assert.is(decoded(uuidParam, id), id)
  for (const bad of ['0b9e4c1e6a7f4f0e9f432f1d6c3b8a11', `${id}0`, 'g'.repeat(36), '']) assert.is(decoded(uuidParam, bad), 'FAIL', bad)
  assert.equal(uuidParam.jsonSchema, { type: 'string', format: 'uuid' })
})

test.run()

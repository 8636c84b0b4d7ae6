import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { paramsBuilder } from '../../../lib/core/route/params-builder.js'

test('paramsBuilder :: maps values to names in path order, compiled or not', () => {
  for (const codegen of [true, false]) {
    assert.equal(paramsBuilder(['owner', 'repo'], codegen)(['nodejs', 'node', 'extra']), { owner: 'nodejs', repo: 'node' })
    assert.equal(paramsBuilder([], codegen)(['x']), {})
  }
})

test('paramsBuilder :: odd but valid names stay data, never code', () => {
  const build = paramsBuilder(['constructor', '_a1', 'toString'])
  assert.equal(JSON.stringify(build(['a', 'b', 'c'])), '{"constructor":"a","_a1":"b","toString":"c"}')
})

test('paramsBuilder :: falls back to the loop where Function is forbidden', () => {
  const original = globalThis.Function
  const forbidding = function () {
    throw new EvalError('codegen disallowed')
  } as unknown as FunctionConstructor
  globalThis.Function = forbidding
  try {
    assert.equal(paramsBuilder(['id'])(['1']), { id: '1' })
  } finally {
    globalThis.Function = original
  }
})

test.run()

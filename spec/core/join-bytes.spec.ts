import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { joinBytes } from '../../lib/core/join-bytes.js'

test('joinBytes :: parts in order, one array', () => {
  const joined = joinBytes([new Uint8Array([1, 2]), new Uint8Array([]), new Uint8Array([3])], 3)
  assert.equal([...joined], [1, 2, 3])
})

test('joinBytes :: a single part is returned as it is', () => {
  const only = new Uint8Array([7, 8])
  assert.is(joinBytes([only], 2), only)
})

test('joinBytes :: the allocator given is used for the result', () => {
  let asked = 0
  const joined = joinBytes([new Uint8Array([1]), new Uint8Array([2])], 2, (n) => {
    asked = n
    return new Uint8Array(n)
  })
  assert.is(asked, 2)
  assert.equal([...joined], [1, 2])
})

test.run()

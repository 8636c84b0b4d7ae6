import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { cursorKey, cursorTarget } from '../../../lib/engine/recovery/cursor-key.js'

test('cursorKey :: everyone, a namespace, a room (default namespace /), and back', () => {
  assert.is(cursorKey({}), '')
  assert.is(cursorKey({ namespace: '/chat' }), '/chat')
  assert.is(cursorKey({ room: 'lobby' }), '/\u0000lobby')
  assert.is(cursorKey({ namespace: '/chat', room: 'a\u0000b' }), '/chat\u0000a\u0000b')
  for (const target of [{}, { namespace: '/chat' }, { namespace: '/', room: 'lobby' }, { namespace: '/chat', room: 'a\u0000b' }]) assert.equal(cursorTarget(cursorKey(target)), target)
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { controlChannel, generationsKey, nodeChannel, nodesKey, scopeKeys, sessionKeys } from '../../lib/redis/redis-keys.js'

test('scopeKeys :: a target\'s channel, stream and counter share one hash tag', () => {
  assert.equal(scopeKeys('tp', { room: 'lobby' }), { tag: 'r:%2F:lobby', channel: 'tp:{r:%2F:lobby}:c', stream: 'tp:{r:%2F:lobby}:s', counter: 'tp:{r:%2F:lobby}:q' })
  assert.is(scopeKeys('tp', { namespace: '/chat' }).channel, 'tp:{n:%2Fchat}:c')
  assert.is(scopeKeys('tp', {}).stream, 'tp:{g}:s')
})

test('scopeKeys :: braces in names cannot end the tag early; a room is not confused with a namespace', () => {
  const keys = scopeKeys('tp', { namespace: '/a}b', room: '{x}' })
  assert.is(keys.channel, 'tp:{r:%2Fa%7Db:%7Bx%7D}:c')
  assert.is.not(scopeKeys('tp', { namespace: 'x' }).tag, scopeKeys('tp', { room: 'x' }).tag)
})

test('node, control, registry and session names', () => {
  assert.is(nodeChannel('tp', 'n/1'), 'tp:{node:n%2F1}:c')
  assert.is(controlChannel('tp'), 'tp:{control}:c')
  assert.is(nodesKey('tp'), 'tp:{nodes}')
  assert.is(generationsKey('tp'), 'tp:{nodes}:generations')
  assert.equal(sessionKeys('tp', 'abc'), { state: 'tp:{s:abc}:state', frames: 'tp:{s:abc}:frames' })
})

test.run()

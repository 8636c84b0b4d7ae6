import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { dialectOf, plainWs, socketIo } from '../../../bench/load/dialect.js'
import { parseClientResult } from '../../../bench/load/client-result.js'

test('plainWs :: the DESIGN §4 paths and the payload as is', () => {
  assert.is(plainWs.path('echo'), '/')
  assert.is(plainWs.path('bcast'), '/bcast')
  assert.is(plainWs.greet('echo'), undefined)
  assert.is(plainWs.wrap('bcast', 'abc'), 'abc')
})

test('socketIo :: engine.io v4 path, namespace connect and event packets', () => {
  assert.is(socketIo.path('bcast'), '/socket.io/?EIO=4&transport=websocket')
  assert.is(socketIo.greet('echo'), '40')
  assert.is(socketIo.greet('bcast'), '40/bcast,')
  assert.is(socketIo.wrap('echo', 'abc'), '42["m","abc"]')
  assert.is(socketIo.wrap('bcast', 'abc'), '42/bcast,["m","abc"]')
})

test('dialectOf :: by name, undefined otherwise', () => {
  assert.is(dialectOf('ws'), plainWs)
  assert.is(dialectOf('socketio'), socketIo)
  assert.is(dialectOf('sse'), undefined)
})

test('parseClientResult :: the last RESULT line, undefined for none or bad JSON', () => {
  const r = parseClientResult('noise\nRESULT {"mode":"echo","ok":false}\nRESULT {"mode":"idle","ok":true}\n')
  assert.is(r?.mode, 'idle')
  assert.is(parseClientResult('nothing\n'), undefined)
  assert.is(parseClientResult('RESULT {oops\n'), undefined)
})

test.run()

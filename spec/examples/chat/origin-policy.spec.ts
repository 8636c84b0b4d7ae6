/** originPolicy and wsOriginGuard: the page's own origin, listed origins, no Origin at all. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { originPolicy } from '../../../examples/chat/origin-policy.js'

const allowed = originPolicy(['https://Chat.Example'])

test('originPolicy :: a request without Origin (not a browser page) passes', () => {
  assert.ok(allowed(undefined, 'localhost:6001'))
  assert.ok(allowed(undefined, undefined))
})

test('originPolicy :: the page served by this host passes, under any name it is reached by', () => {
  assert.ok(allowed('http://localhost:6001', 'localhost:6001'))
  assert.ok(allowed('http://127.0.0.1:6001', '127.0.0.1:6001'))
  assert.ok(allowed('http://[::1]:6001', '[::1]:6001'))
  assert.ok(allowed('https://CHAT.internal', 'chat.internal '))
  assert.ok(allowed('http://chat.internal:80', 'chat.internal'))
})

test('originPolicy :: listed origins pass, in any case', () => {
  assert.ok(allowed('https://chat.example', 'localhost:6001'))
  assert.ok(allowed('HTTPS://CHAT.EXAMPLE', 'localhost:6001'))
})

test('originPolicy :: other sites, other ports, opaque and odd origins are refused', () => {
  assert.not.ok(allowed('https://evil.example', 'localhost:6001'))
  assert.not.ok(allowed('http://localhost:6002', 'localhost:6001'))
  assert.not.ok(allowed('http://localhost.evil.example:6001', 'localhost:6001'))
  assert.not.ok(allowed('null', 'localhost:6001'))
  assert.not.ok(allowed('file:///tmp/x.html', 'localhost:6001'))
  assert.not.ok(allowed('not a url', 'localhost:6001'))
  assert.not.ok(allowed('http://localhost:6001', undefined))
})

test('originPolicy :: with nothing listed only the own page passes', () => {
  const own = originPolicy([])
  assert.ok(own('http://localhost:6001', 'localhost:6001'))
  assert.not.ok(own('https://chat.example', 'localhost:6001'))
})

test.run()

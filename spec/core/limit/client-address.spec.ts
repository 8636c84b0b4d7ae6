import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { clientAddress } from '../../../lib/core/limit/client-address.js'

test('clientAddress :: without trusted proxies, the socket peer (the header is the client\'s own claim)', () => {
  assert.is(clientAddress('10.0.0.2', '198.51.100.9', 0), '10.0.0.2')
})

test('clientAddress :: behind one proxy, the right-most entry: what the proxy saw', () => {
  assert.is(clientAddress('10.0.0.2', '198.51.100.9, 203.0.113.7', 1), '203.0.113.7')
})

test('clientAddress :: behind two proxies, the second entry from the right', () => {
  assert.is(clientAddress('10.0.0.2', 'spoofed, 203.0.113.7 ,10.0.0.9', 2), '203.0.113.7')
})

test('clientAddress :: fewer entries than proxies, or none: the peer', () => {
  assert.is(clientAddress('10.0.0.2', '203.0.113.7', 2), '10.0.0.2')
  assert.is(clientAddress('10.0.0.2', undefined, 1), '10.0.0.2')
  assert.is(clientAddress(undefined, ' ', 1), undefined)
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { acceptKey } from '../../lib/core/ws/accept-key.js'
import { nativeAcceptKey } from '../../lib/runtime/native-accept-key.js'

test('nativeAcceptKey :: the RFC 6455 §1.3 example', () => {
  assert.is(nativeAcceptKey('dGhlIHNhbXBsZSBub25jZQ=='), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
})

test('nativeAcceptKey :: agrees with the portable acceptKey on any key', () => {
  fc.assert(fc.property(fc.string(), (key) => nativeAcceptKey(key) === acceptKey(key)), { numRuns: 200 })
})

test.run()

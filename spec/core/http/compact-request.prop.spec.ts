import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as fc from 'fast-check'
import { compactRequest } from '../../../lib/core/http/compact-request.js'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'

const request: HttpRequest = {
  method: 'GET', target: '/', path: '/', rawQuery: '', protocol: 'HTTP/1.1',
  headers: [], trailers: [], body: new Uint8Array(0), keepAlive: true, expectContinue: false,
}

// RFC 9110 §5.1 token names; values of visible ASCII, spaces and tabs inside (§5.5); and the
// names and values upgrade requests usually carry (held as codes), in either case.
const common = fc.constantFrom('Host', 'host', 'Upgrade', 'upgrade', 'websocket', 'Connection', 'Sec-WebSocket-Key', 'Sec-WebSocket-Version', '13', 'Origin', 'Cookie', 'User-Agent', 'no-cache', 'permessage-deflate; client_max_window_bits')
const name = fc.oneof(fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/), common)
const value = fc.oneof(fc.stringMatching(/^([\x21-\x7e]([\x20-\x7e\t]{0,20}[\x21-\x7e])?)?$/), common)

test('compactRequest.prop :: any header list comes back the same', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(name, value), { maxLength: 20 }), (pairs) => {
      const headers: readonly Header[] = pairs
      assert.equal(compactRequest({ ...request, headers }).headers, headers)
    }),
  )
})

// A request built by hand may hold anything: line feeds, control characters, other text.
const anything = fc.oneof(fc.string({ maxLength: 4 }), fc.constantFrom('\n', '\u0001', '\t', '\u001f', 'a\nb', ''), common, fc.string({ unit: 'grapheme', maxLength: 6 }), fc.string({ unit: 'binary-ascii', maxLength: 6 }))

test('compactRequest.prop :: any strings at all come back the same', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(anything, anything), { maxLength: 8 }), (pairs) => {
      const headers: readonly Header[] = pairs
      assert.equal(compactRequest({ ...request, headers }).headers, headers)
    }),
  )
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as fc from 'fast-check'
import { compactRequest } from '../../../lib/core/http/compact-request.js'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'

const request: HttpRequest = {
  method: 'GET', target: '/', path: '/', rawQuery: '', protocol: 'HTTP/1.1',
  headers: [], trailers: [], body: new Uint8Array(0), keepAlive: true, expectContinue: false,
}

// RFC 9110 §5.1 token names; values of visible ASCII, spaces and tabs inside (§5.5).
const name = fc.stringMatching(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]{1,12}$/)
const value = fc.stringMatching(/^([\x21-\x7e]([\x20-\x7e\t]{0,20}[\x21-\x7e])?)?$/)

test('compactRequest.prop :: any header list comes back the same', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(name, value), { maxLength: 20 }), (pairs) => {
      const headers: readonly Header[] = pairs
      assert.equal(compactRequest({ ...request, headers }).headers, headers)
    }),
  )
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { compileCors } from '../../../lib/core/http/compile-cors.js'
import { decodeCorsConfig, type CorsConfig } from '../../../lib/core/http/cors-config.js'
import { json, text } from '../../../lib/core/http/response.js'
import { withHeader } from '../../../lib/core/http/response-updates.js'
import type { Header, HttpRequest, Response } from '../../../lib/core/http/types.js'

// The wildcard grant (`*` allowed, no credentials) skips the Origin lookup: whatever the
// request's header lines, the answer is the response with `Access-Control-Allow-Origin: *`
// added, as the general grant gives it, and as a request without any header gets it.

const config = (over: unknown): CorsConfig => {
  const r = decodeCorsConfig(over)
  if (r._tag === 'Left') throw new Error(r.left.message)
  return r.right
}

const request = (headers: Header[]): HttpRequest => ({
  method: 'GET', target: '/', path: '/', rawQuery: '', protocol: 'HTTP/1.1', headers, trailers: [], body: new Uint8Array(0), keepAlive: true, expectContinue: false,
})

const name = fc.constantFrom('Origin', 'origin', 'ORIGIN', 'Host', 'Vary', 'Accept', 'Cookie', 'X-Origin')
const value = fc.constantFrom('https://a.example', 'https://b.example', 'null', '*', '', 'Origin')
const headers = fc.array(fc.tuple(name, value), { maxLength: 6 }).map((hs) => hs.map(([n, v]): Header => [n, v]))
const response = fc.oneof(
  fc.constant(json({ hello: 'world' })),
  fc.constant(text('hi')),
  fc.tuple(name, value).map(([n, v]): Response => withHeader(json({}), n, v)),
)
const wildcardConfig = fc.constantFrom(
  config({}),
  config({ allowedOrigins: ['*'] }),
  config({ allowedOrigins: ['https://a.example', '*'], allowCredentials: false }),
)

test('compileCors :: the wildcard grant is the response with Allow-Origin * whatever the request headers', () => {
  fc.assert(
    fc.property(wildcardConfig, headers, response, (cfg, hs, res) => {
      const cors = compileCors(cfg)
      const granted = cors.apply(request(hs), res)
      assert.equal(granted, withHeader(res, 'Access-Control-Allow-Origin', '*'))
      assert.equal(compileCors(cfg).apply(request([]), res), granted)
    }),
    { numRuns: 300 },
  )
})

test('compileCors :: with credentials the Origin is still read: echoed when allowed, with Vary', () => {
  const cors = compileCors(config({ allowedOrigins: ['*'], allowCredentials: true }))
  const res = cors.apply(request([['Host', 'x'], ['origin', 'https://b.example']]), json({}))
  assert.equal(res.headers, [['Vary', 'Origin'], ['Access-Control-Allow-Origin', 'https://b.example'], ['Access-Control-Allow-Credentials', 'true']])
  assert.equal(cors.apply(request([['Host', 'x']]), json({})).headers, [['Vary', 'Origin']])
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_CORS_CONFIG, decodeCorsConfig, type CorsConfig } from '../../../lib/core/http/cors-config.js'
import { applyCors, isOriginAllowed, preflightResponse } from '../../../lib/core/http/cors.js'
import { compileCors } from '../../../lib/core/http/compile-cors.js'
import { getResponseHeader } from '../../../lib/core/http/read-response.js'
import { json } from '../../../lib/core/http/response.js'
import { withHeader } from '../../../lib/core/http/response-updates.js'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'

const req = (method: string, headers: Header[]): HttpRequest => ({
  method, target: '/', path: '/', rawQuery: '', protocol: 'HTTP/1.1', headers, trailers: [], body: new Uint8Array(0), keepAlive: true, expectContinue: false,
})
const config = (over: unknown): CorsConfig => {
  const r = decodeCorsConfig(over)
  if (r._tag === 'Left') throw new Error(r.left.message)
  return r.right
}

test('decodeCorsConfig :: seed defaults', () => {
  assert.equal(decodeCorsConfig(undefined), { _tag: 'Right', right: DEFAULT_CORS_CONFIG })
  assert.equal(decodeCorsConfig({}), { _tag: 'Right', right: DEFAULT_CORS_CONFIG })
  assert.equal(DEFAULT_CORS_CONFIG, {
    allowedOrigins: ['*'], allowedMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD'],
    allowedHeaders: ['Content-Type', 'X-Requested-With', 'Authorization'], allowCredentials: false, maxAge: 86400,
  })
  assert.equal(config({ allowedMethods: ['get'], maxAge: 0 }).allowedMethods, ['GET'])
})

test('decodeCorsConfig :: errors name the field', () => {
  const cases: readonly (readonly [unknown, string])[] = [
    [{ maxAge: -1 }, 'maxAge'], [{ maxAge: 1.5 }, 'maxAge'], [{ allowCredentials: 'yes' }, 'allowCredentials'],
    [{ allowedOrigins: ['https://a', 3] }, 'allowedOrigins.1'], [{ allowedOrigins: 'https://a' }, 'allowedOrigins'],
    [{ allowedMethods: ['GE T'] }, 'allowedMethods.0'], [{ allowedHeaders: ['a:b'] }, 'allowedHeaders.0'],
    [{ allowedOrigin: ['*'] }, 'allowedOrigin'], [null, '(root)'], [[], '(root)'], ['*', '(root)'],
  ]
  for (const [input, field] of cases) {
    const r = decodeCorsConfig(input)
    assert.ok(r._tag === 'Left', JSON.stringify(input))
    if (r._tag === 'Left') {
      assert.is(r.left._tag, 'CorsConfigError')
      assert.is(r.left.field, field)
      assert.ok(r.left.message.includes(field))
    }
  }
})

test('isOriginAllowed :: wildcard or exact, case-insensitive', () => {
  assert.ok(isOriginAllowed(DEFAULT_CORS_CONFIG, 'https://any.example'))
  const c = config({ allowedOrigins: ['https://App.example'] })
  assert.ok(isOriginAllowed(c, 'https://app.example'))
  assert.not.ok(isOriginAllowed(c, 'https://evil.example'))
})

test('applyCors :: wildcard without credentials sends * and no Vary', () => {
  const res = applyCors(DEFAULT_CORS_CONFIG, req('GET', [['Origin', 'https://a.example']]), json({}))
  assert.is(getResponseHeader(res, 'access-control-allow-origin'), '*')
  assert.is(getResponseHeader(res, 'vary'), undefined)
  assert.is(getResponseHeader(res, 'access-control-allow-credentials'), undefined)
})

test('compileCors :: the wildcard grant of a constant response is one value; another response gets its own', () => {
  const cors = compileCors(DEFAULT_CORS_CONFIG)
  const hello = json({ hello: 'world' })
  const other = withHeader(json({}), 'X-A', '1')
  const a = cors.apply(req('GET', []), hello)
  assert.is(cors.apply(req('GET', [['Origin', 'https://b.example']]), hello), a)
  assert.equal(a, { ...hello, headers: [['Access-Control-Allow-Origin', '*']] })
  const b = cors.apply(req('GET', []), other)
  assert.equal(b.headers, [['X-A', '1'], ['Access-Control-Allow-Origin', '*']])
  assert.is(cors.apply(req('GET', []), hello), cors.apply(req('GET', []), hello))
  assert.equal(cors.apply(req('GET', []), hello), a)
})

test('applyCors :: listed origins are echoed with Vary: Origin; others get no grant', () => {
  const c = config({ allowedOrigins: ['https://a.example'] })
  const yes = applyCors(c, req('GET', [['Origin', 'https://a.example']]), withHeader(json({}), 'Vary', 'Accept'))
  assert.is(getResponseHeader(yes, 'access-control-allow-origin'), 'https://a.example')
  assert.is(getResponseHeader(yes, 'vary'), 'Accept, Origin')
  const no = applyCors(c, req('GET', [['Origin', 'https://b.example']]), json({}))
  assert.is(getResponseHeader(no, 'access-control-allow-origin'), undefined)
  assert.is(getResponseHeader(no, 'vary'), 'Origin')
  const none = applyCors(c, req('GET', []), withHeader(json({}), 'Vary', 'origin'))
  assert.is(getResponseHeader(none, 'vary'), 'origin')
  assert.is(getResponseHeader(applyCors(c, req('GET', []), withHeader(json({}), 'Vary', '*')), 'vary'), '*')
})

test('applyCors :: with credentials the origin is echoed, never *', () => {
  const c = config({ allowCredentials: true })
  const res = applyCors(c, req('GET', [['Origin', 'https://a.example']]), json({}))
  assert.is(getResponseHeader(res, 'access-control-allow-origin'), 'https://a.example')
  assert.is(getResponseHeader(res, 'access-control-allow-credentials'), 'true')
  assert.is(getResponseHeader(res, 'vary'), 'Origin')
})

test('preflightResponse :: 204 with methods, headers and max age', () => {
  const res = preflightResponse(DEFAULT_CORS_CONFIG, req('OPTIONS', [['Origin', 'https://a.example'], ['Access-Control-Request-Method', 'put']]))
  assert.ok(res !== undefined)
  if (res === undefined) return
  assert.is(res.status, 204)
  assert.is(getResponseHeader(res, 'access-control-allow-origin'), '*')
  assert.is(getResponseHeader(res, 'access-control-allow-methods'), 'GET, POST, PUT, DELETE, OPTIONS, PATCH, HEAD')
  assert.is(getResponseHeader(res, 'access-control-allow-headers'), 'Content-Type, X-Requested-With, Authorization')
  assert.is(getResponseHeader(res, 'access-control-max-age'), '86400')
  const noHeaders = preflightResponse(config({ allowedHeaders: [] }), req('OPTIONS', [['Origin', 'o'], ['Access-Control-Request-Method', 'GET']]))
  assert.is(noHeaders && getResponseHeader(noHeaders, 'access-control-allow-headers'), undefined)
})

test('preflightResponse :: disallowed origin or method gets no grant; non-preflights undefined', () => {
  const c = config({ allowedOrigins: ['https://a.example'], allowedMethods: ['GET'] })
  const badOrigin = preflightResponse(c, req('OPTIONS', [['Origin', 'https://b.example'], ['Access-Control-Request-Method', 'GET']]))
  assert.is(badOrigin?.status, 204)
  assert.is(badOrigin && getResponseHeader(badOrigin, 'access-control-allow-origin'), undefined)
  assert.is(badOrigin && getResponseHeader(badOrigin, 'vary'), 'Origin')
  const badMethod = preflightResponse(DEFAULT_CORS_CONFIG, req('OPTIONS', [['Origin', 'x'], ['Access-Control-Request-Method', 'TRACE']]))
  assert.is(badMethod && getResponseHeader(badMethod, 'access-control-allow-origin'), undefined)
  assert.is(badMethod && getResponseHeader(badMethod, 'access-control-allow-methods'), undefined)
  assert.is(preflightResponse(c, req('GET', [['Origin', 'x'], ['Access-Control-Request-Method', 'GET']])), undefined)
  assert.is(preflightResponse(c, req('OPTIONS', [['Origin', 'x']])), undefined)
  assert.is(preflightResponse(c, req('OPTIONS', [['Access-Control-Request-Method', 'GET']])), undefined)
  const cred = compileCors(config({ allowCredentials: true })).preflight(req('OPTIONS', [['Origin', 'https://a'], ['Access-Control-Request-Method', 'GET']]))
  assert.is(cred && getResponseHeader(cred, 'access-control-allow-credentials'), 'true')
})

test.run()

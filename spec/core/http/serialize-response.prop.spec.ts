import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import {
  createSerializeCache, serializeAnswer as answerWith, serializeResponse as serializeWith, type SerializeOptions,
} from '../../../lib/core/http/serialize-response.js'
import { statusText } from '../../../lib/core/http/status-text.js'
import type { Header, Response, ResponseBody } from '../../../lib/core/http/types.js'

// One server's cache for every call here, as a server serialises (its pool, caches and memo).
const cache = createSerializeCache()
const serializeResponse = (res: Response, options: SerializeOptions): Uint8Array => serializeWith(res, options, cache)
const serializeAnswer = (res: Response, keepAlive: boolean, head: boolean, date: string | undefined, protocol: 'HTTP/1.0' | 'HTTP/1.1' | undefined) =>
  answerWith(res, keepAlive, head, date, protocol, cache)

// The serializer writes most answers with a body as bytes straight into its pool (cached
// prefix bytes, the length's digits, the header lines, the Date line, the body encoded first
// and moved up), and the rest as one head string. Both must give the bytes of this
// reference, built the plain way: one string for the head, TextEncoder for everything.

const encoder = new TextEncoder()
const FRAMING = new Set(['connection', 'content-type', 'content-length', 'transfer-encoding'])

const reference = (res: Response, options: SerializeOptions): Uint8Array => {
  let status = Number.isInteger(res.status) && res.status >= 100 && res.status <= 599 ? res.status : 500
  let contentType = res.contentType
  let body: Uint8Array
  const b = res.body
  if (b === undefined || b === null) body = new Uint8Array(0)
  else if (typeof b === 'string') body = encoder.encode(b)
  else if (b instanceof Uint8Array) body = b
  else {
    let text: string | undefined
    try {
      text = JSON.stringify(b)
    } catch {
      text = undefined
    }
    if (typeof text !== 'string') {
      status = 500
      contentType = 'application/json'
      text = '{"error":"unserializable_body"}'
    }
    body = encoder.encode(text)
  }
  const noContent = status < 200 || status === 204 || status === 304
  let head = `HTTP/1.1 ${status} ${statusText(status)}\r\n`
  if (!noContent) head += `${contentType === '' ? '' : `Content-Type: ${contentType}\r\n`}Content-Length: ${body.length}\r\n`
  for (const [name, value] of res.headers) if (!FRAMING.has(name.toLowerCase())) head += `${name}: ${value}\r\n`
  if (options.date !== undefined) head += `Date: ${options.date}\r\n`
  if (!options.keepAlive) head += 'Connection: close\r\n'
  else if (options.protocol === 'HTTP/1.0') head += 'Connection: keep-alive\r\n'
  head += '\r\n'
  const headBytes = encoder.encode(head)
  const send = !noContent && options.head !== true ? body : new Uint8Array(0)
  const out = new Uint8Array(headBytes.length + send.length)
  out.set(headBytes)
  out.set(send, headBytes.length)
  return out
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (x) => x.toString(16).padStart(2, '0')).join('')

// Text with ASCII, Latin-1, BMP, astral chars and lone surrogates, short and long.
const textOf = fc.oneof(
  fc.string({ maxLength: 80 }),
  fc.string({ maxLength: 80, unit: 'binary' }),
  fc.string({ minLength: 60, maxLength: 1600 }),
  fc.constantFrom('', 'ok', 'Zo\u00eb \u2603', '\ud83d\ude00', 'a\ud800b', '{"hello":"world"}', 'x'.repeat(1365), 'x'.repeat(1366)),
)
const bodyOf: fc.Arbitrary<ResponseBody> = fc.oneof(
  textOf,
  fc.uint8Array({ maxLength: 300 }),
  fc.uint8Array({ minLength: 3000, maxLength: 5000 }),
  fc.constant(null),
  fc.constant(undefined),
  fc.jsonValue({ maxDepth: 3 }).filter((v) => v !== null && typeof v === 'object') as fc.Arbitrary<ResponseBody>,
  fc.constant({ big: 10n } as unknown as ResponseBody),
)
const headerName = fc.constantFrom('X-A', 'Vary', 'Access-Control-Allow-Origin', 'Content-Length', 'connection', 'Set-Cookie', 'Transfer-Encoding', 'content-type')
const headersOf = fc.array(fc.tuple(headerName, textOf.map((t) => t.slice(0, 40))), { maxLength: 4 }).map((hs) => hs.map(([n, v]): Header => [n, v]))
const responseOf: fc.Arbitrary<Response> = fc.record({
  _tag: fc.constant('Response' as const),
  status: fc.oneof(fc.constantFrom(200, 201, 204, 304, 404, 500, 100, 101, 199, 599, 600, 99, 200.5), fc.integer({ min: 100, max: 599 })),
  headers: headersOf,
  contentType: fc.constantFrom('application/json', 'text/plain; charset=utf-8', '', 'application/octet-stream', 'text/x-\u00e9'),
  body: bodyOf,
})
const optionsOf: fc.Arbitrary<SerializeOptions> = fc.record(
  {
    keepAlive: fc.boolean(),
    head: fc.boolean(),
    date: fc.constantFrom('Mon, 23 Nov 2026 09:00:00 GMT', 'Mon, 23 Nov 2026 09:00:01 GMT'),
    protocol: fc.constantFrom('HTTP/1.0' as const, 'HTTP/1.1' as const),
  },
  { requiredKeys: ['keepAlive'] },
)

test('serializeResponse :: the bytes of the plain reference, whatever the response and options (and no slice rewritten later)', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(responseOf, optionsOf), { minLength: 1, maxLength: 30 }), (answers) => {
      // Every slice handed out is kept with a copy of its bytes, and checked again at the end.
      const given: [Uint8Array, Uint8Array][] = []
      for (const [res, options] of answers) {
        const out = serializeResponse(res, { ...options, onUnserializable: () => undefined })
        const expected = reference(res, options)
        assert.is(hex(out), hex(expected))
        given.push([out, expected])
      }
      for (const [out, expected] of given) assert.is(hex(out), hex(expected))
    }),
    { numRuns: 300 },
  )
})

test('serializeAnswer :: the bytes of serializeResponse, or undefined for a body without JSON text', () => {
  fc.assert(
    fc.property(responseOf, fc.boolean(), fc.boolean(), fc.constantFrom('HTTP/1.0' as const, 'HTTP/1.1' as const), (res, keepAlive, head, protocol) => {
      const date = 'Mon, 23 Nov 2026 09:00:00 GMT'
      const out = serializeAnswer(res, keepAlive, head, date, protocol)
      const failed = res.body !== null && typeof res.body === 'object' && !(res.body instanceof Uint8Array) && 'big' in res.body
      if (failed) return assert.is(out, undefined)
      assert.ok(out !== undefined)
      assert.is(hex(out), hex(reference(res, { keepAlive, head, date, protocol })))
    }),
    { numRuns: 300 },
  )
})

test('serializeResponse :: a pooled answer at the pool\'s end, and answers across many pools, stay whole', () => {
  const answers: [Uint8Array, Uint8Array][] = []
  for (let i = 0; i < 400; i++) {
    const res: Response = { _tag: 'Response', status: 200, headers: [['X-I', String(i)]], contentType: 'text/plain; charset=utf-8', body: 'y'.repeat(i * 7) }
    const options = { keepAlive: true, date: 'Mon, 23 Nov 2026 09:00:00 GMT' }
    answers.push([serializeResponse(res, options), reference(res, options)])
  }
  for (const [out, expected] of answers) assert.is(hex(out), hex(expected))
})

test.run()

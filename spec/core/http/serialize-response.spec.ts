import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { json, response, text } from '../../../lib/core/http/response.js'
import { withHeader } from '../../../lib/core/http/response-updates.js'
import {
  createSerializeCache, serializeAnswer as answerWith, serializeResponse as serializeWith, type SerializeOptions,
} from '../../../lib/core/http/serialize-response.js'
import type { Response } from '../../../lib/core/http/types.js'

// One server's cache for every call here, as a server serialises (its pool, caches and memo).
const cache = createSerializeCache()
const serializeResponse = (res: Response, options: SerializeOptions): Uint8Array => serializeWith(res, options, cache)
const serializeAnswer = (res: Response, keepAlive: boolean, head: boolean, date: string | undefined, protocol: 'HTTP/1.0' | 'HTTP/1.1' | undefined) =>
  answerWith(res, keepAlive, head, date, protocol, cache)

const wire = (b: Uint8Array): string => new TextDecoder().decode(b)
const KA = { keepAlive: true } as const

test('serializeResponse :: a header value beyond ASCII is sent as UTF-8', () => {
  const out = serializeResponse(withHeader(text('ok'), 'X-Name', 'Zo\u00eb \u2603'), KA)
  assert.is(wire(out), 'HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nX-Name: Zo\u00eb \u2603\r\n\r\nok')
})

test('serializeResponse :: text and JSON beyond ASCII count their bytes', () => {
  assert.match(wire(serializeResponse(text('\u00e9\u2603'), KA)), 'Content-Length: 5\r\n\r\n\u00e9\u2603')
  assert.match(wire(serializeResponse(json({ s: '\u00e9' }), KA)), 'Content-Length: 10\r\n\r\n{"s":"\u00e9"}')
})

test('serializeResponse :: large text, JSON and byte bodies are whole', () => {
  const big = 'x'.repeat(10_000)
  const t = wire(serializeResponse(text(big), KA))
  assert.ok(t.endsWith(`Content-Length: 10000\r\n\r\n${big}`))
  const j = wire(serializeResponse(json([big]), KA))
  assert.ok(j.endsWith(`Content-Length: 10004\r\n\r\n["${big}"]`))
  const bytes = new Uint8Array(9_000).fill(0x61)
  const b = serializeResponse(response(bytes), KA)
  assert.is(b.length - wire(b).indexOf('\r\n\r\n') - 4, 9_000)
  assert.ok(b.subarray(b.length - 9_000).every((x) => x === 0x61))
  assert.match(wire(b.subarray(0, 100)), 'Content-Length: 9000\r\n')
})

test('serializeResponse :: results stay intact across many responses (pool turnover)', () => {
  const outs: [Uint8Array, string][] = []
  for (let i = 0; i < 2_000; i++) {
    const body = i % 3 === 0 ? response(new Uint8Array([i & 0xff, 1, 2])) : json({ i, pad: 'p'.repeat(i % 50) })
    const out = serializeResponse(body, KA)
    outs.push([out, wire(out)])
  }
  for (const [out, seen] of outs) assert.is(wire(out), seen)
})

test('serializeResponse :: consecutive short responses are adjacent views of one buffer', () => {
  const a = serializeResponse(json({ a: 1 }), KA)
  const b = serializeResponse(json({ b: 2 }), KA)
  if (a.buffer === b.buffer) assert.is(a.byteOffset + a.length, b.byteOffset)
  const joined = new Uint8Array(a.buffer, a.byteOffset, a.length + b.length)
  if (a.buffer === b.buffer) assert.is(wire(joined), wire(a) + wire(b))
})

test('serializeResponse :: many distinct content types (past the line cache) are each sent as given', () => {
  for (let i = 0; i < 300; i++) {
    const out = wire(serializeResponse(response('x', 200 + (i % 3), { 'Content-Type': `a/t${i}` }), { keepAlive: true, date: `d${i % 2}` }))
    assert.match(out, `Content-Type: a/t${i}\r\nContent-Length: 1\r\nDate: d${i % 2}\r\n\r\nx`)
  }
})

test('serializeResponse :: the same response value serialised twice, and fresh ones between, give their own JSON', () => {
  const constant = json({ hello: 'world' })
  const first = wire(serializeResponse(constant, { keepAlive: true }))
  const again = wire(serializeResponse(constant, { keepAlive: true }))
  assert.is(again, first)
  assert.ok(first.endsWith('{"hello":"world"}'))
  const other = wire(serializeResponse(json({ n: 2 }), { keepAlive: true }))
  assert.ok(other.endsWith('{"n":2}'))
  assert.ok(wire(serializeResponse(constant, { keepAlive: true })).endsWith('{"hello":"world"}'))
})

test('serializeResponse :: an unencodable JSON body is 500 unserializable_body, reported each time it is sent', () => {
  const cyclic: Record<string, unknown> = { name: 'loop' }
  cyclic['self'] = cyclic
  const res = response(cyclic as never)
  const reported: unknown[] = []
  const options = { keepAlive: true, onUnserializable: (error: unknown) => void reported.push(error) }
  for (let i = 0; i < 2; i++) {
    assert.is(
      wire(serializeResponse(res, options)),
      'HTTP/1.1 500 Internal Server Error\r\nContent-Type: application/json\r\nContent-Length: 31\r\n\r\n{"error":"unserializable_body"}',
    )
  }
  assert.is(reported.length, 2)
  // What JSON.stringify threw (each engine words it its own way; all throw a TypeError).
  assert.instance(reported[0], TypeError)
  serializeResponse(json({ n: 10n } as never), options)
  assert.instance(reported[2], TypeError)
  assert.is.not(String(reported[2]), 'TypeError: the response body has no JSON text')
})

test('serializeResponse :: a body with no JSON text is reported with a TypeError; without a hook it is still 500', () => {
  const reported: unknown[] = []
  const fn = response((() => 1) as never)
  assert.match(wire(serializeResponse(fn, { keepAlive: true, onUnserializable: (e) => void reported.push(e) })), '{"error":"unserializable_body"}')
  assert.equal(String(reported[0]), 'TypeError: the response body has no JSON text')
  assert.match(wire(serializeResponse(response((() => 2) as never), KA)), 'HTTP/1.1 500 Internal Server Error')
})

test('serializeAnswer :: the bytes serializeResponse gives, for every option, fresh or remembered', () => {
  const values: Response[] = [text('hi'), json({ a: 1 }), withHeader(json([1]), 'Connection', 'x'), response(undefined, 204), response('x', 304)]
  for (const res of values) {
    for (const keepAlive of [true, false]) {
      for (const head of [true, false]) {
        for (const protocol of ['HTTP/1.0', 'HTTP/1.1', undefined] as const) {
          for (const date of [undefined, 'Sun, 06 Nov 1994 08:49:37 GMT']) {
            const expected = wire(serializeResponse(res, { keepAlive, head, protocol, ...(date === undefined ? {} : { date }) }))
            serializeResponse(text('other'), KA)
            const fresh = serializeAnswer(res, keepAlive, head, date, protocol)
            const again = serializeAnswer(res, keepAlive, head, date, protocol)
            assert.ok(fresh !== undefined && again !== undefined)
            assert.is(wire(fresh), expected)
            assert.is(wire(again), expected)
          }
        }
      }
    }
  }
})

test('serializeAnswer :: an unencodable JSON body is no answer, every time, and nothing is reported', () => {
  const cyclic: Record<string, unknown> = {}
  cyclic.self = cyclic
  const res = response(cyclic as never)
  assert.is(serializeAnswer(res, true, false, undefined, 'HTTP/1.1'), undefined)
  assert.is(serializeAnswer(res, true, false, undefined, 'HTTP/1.1'), undefined)
  const reported: unknown[] = []
  const out = wire(serializeResponse(res, { keepAlive: true, onUnserializable: (e) => reported.push(e) }))
  assert.match(out, /^HTTP\/1.1 500 Internal Server Error\r\n/)
  assert.is(reported.length, 1)
})

test.run()

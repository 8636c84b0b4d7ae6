/**
 * `textResponder`: each host kind's way of building the common answer (`'other'`: a record;
 * `'deno'`: the one-Content-Type answer, further headers appended after; `'bun'`: a `Headers`
 * shared by every answer of one shape) gives the same Response: status, body, and every header
 * (framing headers taken from the application dropped, a repeated one kept or left to the
 * general path). A shared `Headers` is never changed by a change to one answer's headers, and
 * one per content type. Every kind runs on every runtime (they only use the standard
 * `Response` and `Headers`), so the table runs in Node, Bun and Deno (spec/fetch is portable).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { json, noContent, response, text } from '../../lib/core/http/response.js'
import type { Header, Response as Answer } from '../../lib/core/http/types.js'
import { type HostKind, hostKindOf, textResponder } from '../../lib/fetch/text-responder.js'

const KINDS: readonly HostKind[] = ['other', 'deno', 'bun']
const GRANT: readonly Header[] = Object.freeze([Object.freeze(['Access-Control-Allow-Origin', '*'] as const)])

// What a client sees of a Response: status, headers (lower-case names, sorted), body.
const seen = async (res: Response): Promise<{ status: number; headers: string[]; body: string }> => {
  const headers: string[] = []
  res.headers.forEach((value, name) => headers.push(`${name}: ${value}`))
  return { status: res.status, headers: headers.sort(), body: await res.text() }
}

const cases: readonly (readonly [string, Answer, { status: number; headers: string[]; body: string } | undefined])[] = [
  ['JSON, no other header', json({ hello: 'world' }), { status: 200, headers: ['content-type: application/json'], body: '{"hello":"world"}' }],
  [
    'JSON with the CORS grant (a frozen list)',
    { ...json({ hello: 'world' }), headers: GRANT },
    { status: 200, headers: ['access-control-allow-origin: *', 'content-type: application/json'], body: '{"hello":"world"}' },
  ],
  [
    'text 201 with two headers',
    text('made', 201, { 'X-Id': '7', 'Access-Control-Allow-Origin': '*' }),
    { status: 201, headers: ['access-control-allow-origin: *', 'content-type: text/plain; charset=utf-8', 'x-id: 7'], body: 'made' },
  ],
  [
    'framing headers from the application dropped',
    { ...json({ a: 1 }), headers: [['Content-Length', '99'], ['Connection', 'close'], ['X-A', 'b']] },
    { status: 200, headers: ['content-type: application/json', 'x-a: b'], body: '{"a":1}' },
  ],
  ['a custom content type', response('<p>hi</p>', 200, { 'Content-Type': 'text/html; charset=utf-8' }), { status: 200, headers: ['content-type: text/html; charset=utf-8'], body: '<p>hi</p>' }],
  ['no body: the general path', noContent(), undefined],
  ['bytes: the general path', response(new Uint8Array([1, 2])), undefined],
]

for (const kind of KINDS) {
  for (const [what, answer, expected] of cases) {
    test(`textResponder(${kind}) :: ${what}`, async () => {
      const res = textResponder(kind)(answer, false)
      if (expected === undefined) return assert.is(res, undefined)
      assert.ok(res !== undefined)
      assert.equal(await seen(res), expected)
    })
  }

  test(`textResponder(${kind}) :: a HEAD is left to the general path`, () => {
    assert.is(textResponder(kind)(json({ a: 1 }), true), undefined)
  })

  test(`textResponder(${kind}) :: a repeated header reaches the client twice, or is left to the general path`, async () => {
    const res = textResponder(kind)({ ...json({ a: 1 }), headers: [['Set-Cookie', 'a=1'], ['Set-Cookie', 'b=2']] }, false)
    if (res === undefined) return assert.ok(kind !== 'deno', 'the deno way appends')
    assert.equal(res.headers.getSetCookie(), ['a=1', 'b=2'])
  })

  test(`textResponder(${kind}) :: changing one answer's headers changes no other answer`, async () => {
    const respond = textResponder(kind)
    const answer = { ...json({ hello: 'world' }), headers: GRANT }
    const first = respond(answer, false)
    assert.ok(first !== undefined)
    first.headers.set('Access-Control-Allow-Origin', 'https://changed.test')
    first.headers.append('X-Late', '1')
    first.headers.delete('Content-Type')
    const second = respond(answer, false)
    assert.ok(second !== undefined)
    assert.equal((await seen(second)).headers, ['access-control-allow-origin: *', 'content-type: application/json'])
  })

  test(`textResponder(${kind}) :: one shared shape per content type`, async () => {
    const respond = textResponder(kind)
    const asJson = respond({ ...json({ a: 1 }), headers: GRANT }, false)
    const asText = respond({ ...text('a'), headers: GRANT }, false)
    assert.is(asJson?.headers.get('content-type'), 'application/json')
    assert.is(asText?.headers.get('content-type'), 'text/plain; charset=utf-8')
    // Past the shapes one list keeps (a content type per answer), answers are still right.
    for (let i = 0; i < 40; i++) assert.is(respond({ ...text('x', 200, { 'Content-Type': `text/x-${i}` }), headers: GRANT }, false)?.headers.get('content-type'), `text/x-${i}`)
  })
}

test('hostKindOf :: tells Deno and Bun from their globals, else other', () => {
  assert.is(hostKindOf({ Deno: {} }), 'deno')
  assert.is(hostKindOf({ Bun: {} }), 'bun')
  assert.is(hostKindOf({}), 'other')
  const here = hostKindOf()
  assert.is(here, 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'other')
})

test.run()

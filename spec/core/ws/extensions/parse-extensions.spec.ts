import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Extension } from '../../../../lib/core/ws/extensions/extension.js'
import type { InvalidExtensionsHeader } from '../../../../lib/core/ws/extensions/extension-error.js'
import { parseExtensions } from '../../../../lib/core/ws/extensions/parse-extensions.js'
import { headerValue } from '../../../../lib/core/http/header-value.js'

const ext = (name: string, ...params: Array<[string, string?]>): Extension => ({
  name,
  params: params.map(([n, v]) => ({ name: n, value: v })),
})

const parses = (text: string, expected: readonly Extension[]): void => {
  assert.equal(parseExtensions(text), E.right(expected), text)
}

const fails = (text: string, offset: number, expected: string): InvalidExtensionsHeader => {
  const out = parseExtensions(text)
  if (E.isRight(out)) throw new Error(`expected ${JSON.stringify(text)} to fail`)
  assert.equal([out.left._tag, out.left.status, out.left.offset, out.left.expected], ['InvalidExtensionsHeader', 400, offset, expected], text)
  assert.is(out.left.reason, 'invalid Sec-WebSocket-Extensions header')
  return out.left
}

test('parseExtensions :: one extension, no parameters', () => {
  parses('permessage-deflate', [ext('permessage-deflate')])
})

test('parseExtensions :: what Chromium sends', () => {
  parses('permessage-deflate; client_max_window_bits', [ext('permessage-deflate', ['client_max_window_bits'])])
})

test('parseExtensions :: several permessage-deflate offers, in order of preference (RFC 7692 §5)', () => {
  parses('permessage-deflate; client_max_window_bits; server_max_window_bits=10, permessage-deflate; client_max_window_bits', [
    ext('permessage-deflate', ['client_max_window_bits'], ['server_max_window_bits', '10']),
    ext('permessage-deflate', ['client_max_window_bits']),
  ])
})

test('parseExtensions :: RFC 6455 §9.1 example with a quoted value, unescaped', () => {
  parses('foo, bar; baz=2', [ext('foo'), ext('bar', ['baz', '2'])])
  parses('mux; max-channels=4; flow-control, deflate-stream', [ext('mux', ['max-channels', '4'], ['flow-control']), ext('deflate-stream')])
  parses('permessage-deflate; server_max_window_bits="10"', [ext('permessage-deflate', ['server_max_window_bits', '10'])])
  parses('x; a="b\\c"', [ext('x', ['a', 'bc'])])
})

test('parseExtensions :: whitespace around ",", ";" and "=", tabs too', () => {
  parses(' a ;b = 1\t;\tc ,  d ', [ext('a', ['b', '1'], ['c']), ext('d')])
})

test('parseExtensions :: empty list elements are ignored (RFC 9110 §5.6.1)', () => {
  parses(', a, , b,', [ext('a'), ext('b')])
  parses('', [])
  parses('  ', [])
  parses(',', [])
})

test('parseExtensions :: repeated header lines, joined with ", " by headerValue, are one list', () => {
  const joined = headerValue(
    [
      ['Sec-WebSocket-Extensions', 'permessage-deflate; server_no_context_takeover'],
      ['sec-websocket-extensions', 'permessage-deflate'],
    ],
    'sec-websocket-extensions',
  )
  parses(joined ?? '', [ext('permessage-deflate', ['server_no_context_takeover']), ext('permessage-deflate')])
})

test('parseExtensions :: keeps names as written (tokens compare exactly)', () => {
  parses('Permessage-Deflate; X=Y', [ext('Permessage-Deflate', ['X', 'Y'])])
})

test('parseExtensions :: rejects a missing parameter name (400)', () => {
  fails('permessage-deflate;', 19, 'a parameter name')
  fails('permessage-deflate; ;x', 20, 'a parameter name')
  fails('a; =1', 3, 'a parameter name')
})

test('parseExtensions :: rejects a missing extension name (400)', () => {
  fails('; a', 0, 'an extension name')
  fails('a, ;b', 3, 'an extension name')
  fails('"a"', 0, 'an extension name')
})

test('parseExtensions :: rejects a missing value after "=" (400)', () => {
  fails('a; b=', 5, 'a parameter value')
  fails('a; b= ,c', 6, 'a parameter value')
})

test('parseExtensions :: rejects text between elements that is not "," or ";" (400)', () => {
  fails('a b', 2, '";" or ","')
  fails('a; b=1 2', 7, '";" or ","')
  fails('a; b c', 5, '";" or ","')
  fails('a; b="1"x', 8, '";" or ","')
})

test('parseExtensions :: rejects characters outside tokens (400)', () => {
  fails('a/b', 1, '";" or ","')
  fails('a; b=1/2', 6, '";" or ","')
  fails('a; b=\u0100', 5, 'a parameter value')
  fails('\u00e9', 0, 'an extension name')
})

test('parseExtensions :: rejects an unterminated quoted string (400)', () => {
  fails('a; b="10', 8, 'a closing quote')
  fails('a; b="1\\', 8, 'an escaped character')
})

test('parseExtensions :: rejects a control character in a quoted string (400)', () => {
  fails('a; b="1\u00012"', 7, 'a character allowed in a quoted string')
  fails('a; b="1\\\u0001"', 8, 'an escaped character')
})

test('parseExtensions :: rejects a quoted value that is not a token once unescaped (RFC 6455 §9.1, 400)', () => {
  fails('a; b="1 0"', 5, 'a token inside the quotes')
  fails('a; b=""', 5, 'a token inside the quotes')
  fails('a; b="x,y"', 5, 'a token inside the quotes')
  fails('a; b="\u00e9"', 5, 'a token inside the quotes')
})

test.run()

import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Header, HttpRequest } from '../../../lib/core/http/types.js'
import { acceptKey } from '../../../lib/core/ws/accept-key.js'
import { encodeBase64 } from '../../../lib/core/ws/base64.js'
import type { HandshakeError } from '../../../lib/core/ws/handshake-error.js'
import { handshakeResponse } from '../../../lib/core/ws/handshake-response.js'
import { sha1 } from '../../../lib/core/ws/sha1.js'
import { isWebSocketUpgrade, validateUpgrade } from '../../../lib/core/ws/validate-upgrade.js'
import { toHex, utf8 } from './hex.js'

// RFC 6455 §1.2: the sample handshake.
const SAMPLE: readonly Header[] = [
  ['Host', 'server.example.com'],
  ['Upgrade', 'websocket'],
  ['Connection', 'Upgrade'],
  ['Sec-WebSocket-Key', 'dGhlIHNhbXBsZSBub25jZQ=='],
  ['Origin', 'http://example.com'],
  ['Sec-WebSocket-Protocol', 'chat, superchat'],
  ['Sec-WebSocket-Version', '13'],
]

const request = (over: Partial<HttpRequest> = {}): HttpRequest => ({
  method: 'GET',
  target: '/chat?room=1',
  path: '/chat',
  rawQuery: 'room=1',
  protocol: 'HTTP/1.1',
  headers: SAMPLE,
  trailers: [],
  body: new Uint8Array(0),
  keepAlive: true,
  expectContinue: false,
  ...over,
})

// The sample's headers with one replaced (or removed, with `undefined`).
const withHeader = (name: string, value: string | undefined): readonly Header[] => [
  ...SAMPLE.filter(([n]) => n.toLowerCase() !== name.toLowerCase()),
  ...(value === undefined ? [] : [[name, value] as const]),
]

const ANY = { allowedOrigins: ['*'] }

const refusal = (req: HttpRequest, options = ANY): HandshakeError => {
  const result = validateUpgrade(req, options)
  if (E.isRight(result)) throw new Error('expected a refusal')
  return result.left
}

test('sha1 :: FIPS 180 test vectors', () => {
  assert.is(toHex(sha1(utf8(''))), 'da 39 a3 ee 5e 6b 4b 0d 32 55 bf ef 95 60 18 90 af d8 07 09')
  assert.is(toHex(sha1(utf8('abc'))), 'a9 99 3e 36 47 06 81 6a ba 3e 25 71 78 50 c2 6c 9c d0 d8 9d')
  assert.is(
    toHex(sha1(utf8('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'))),
    '84 98 3e 44 1c 3b d2 6e ba ae 4a a1 f9 51 29 e5 e5 46 70 f1',
  )
  assert.is(toHex(sha1(utf8('a'.repeat(1000)))), '29 1e 9a 6c 66 99 49 49 b5 7b a5 e6 50 36 1e 98 fc 36 b1 ba')
})

test('sha1 :: the lengths where the padding spills into another block', () => {
  // 55 bytes still fit one block with the padding; 56 and 64 need two.
  assert.is(toHex(sha1(utf8('a'.repeat(55)))), 'c1 c8 bb dc 22 79 6e 28 c0 e1 51 63 d2 08 99 b6 56 21 d6 5a')
  assert.is(toHex(sha1(utf8('a'.repeat(56)))), 'c2 db 33 0f 60 83 85 4c 99 d4 b5 bf b6 e8 f2 9f 20 1b e6 99')
  assert.is(toHex(sha1(utf8('a'.repeat(64)))), '00 98 ba 82 4b 5c 16 42 7b d7 a1 12 2a 5a 44 2a 25 ec 64 4d')
})

test('encodeBase64 :: RFC 4648 §10 test vectors', () => {
  assert.equal(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar'].map((s) => encodeBase64(utf8(s))), [
    '', 'Zg==', 'Zm8=', 'Zm9v', 'Zm9vYg==', 'Zm9vYmE=', 'Zm9vYmFy',
  ])
  assert.is(encodeBase64(Uint8Array.of(0xfb, 0xff, 0xbf)), '+/+/')
})

test('acceptKey :: RFC 6455 §1.3 sample', () => {
  assert.is(acceptKey('dGhlIHNhbXBsZSBub25jZQ=='), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
})

test('isWebSocketUpgrade :: the Upgrade header names websocket, in any case, among others', () => {
  assert.ok(isWebSocketUpgrade(request()))
  assert.ok(isWebSocketUpgrade(request({ headers: [['upgrade', 'h2c, WebSocket']] })))
  assert.not.ok(isWebSocketUpgrade(request({ headers: [['Upgrade', 'h2c']] })))
  assert.not.ok(isWebSocketUpgrade(request({ headers: [] })))
})

test('validateUpgrade :: RFC 6455 §1.2 sample request', () => {
  assert.equal(validateUpgrade(request(), { allowedOrigins: ['http://example.com'], protocols: ['superchat', 'chat'] }), E.right({
    key: 'dGhlIHNhbXBsZSBub25jZQ==',
    accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=',
    protocol: 'chat',
    origin: 'http://example.com',
    path: '/chat',
    rawQuery: 'room=1',
  }))
})

test('validateUpgrade :: no subprotocol when none offered is spoken, no origin when none sent', () => {
  const req = request({ headers: withHeader('Origin', undefined) })
  assert.equal(validateUpgrade(req, { allowedOrigins: ['https://app.example'], protocols: ['mqtt'] }), E.right({
    key: 'dGhlIHNhbXBsZSBub25jZQ==',
    accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=',
    path: '/chat',
    rawQuery: 'room=1',
  }))
})

test('validateUpgrade :: header names and tokens are case-insensitive; Connection may list more', () => {
  const headers: Header[] = [
    ['UPGRADE', 'WebSocket'],
    ['connection', 'keep-alive, Upgrade'],
    ['sec-websocket-key', ' dGhlIHNhbXBsZSBub25jZQ== '],
    ['SEC-WEBSOCKET-VERSION', '13'],
  ]
  assert.ok(E.isRight(validateUpgrade(request({ headers }), ANY)))
})

test('validateUpgrade :: origins compare case-insensitively; "*" allows any', () => {
  const req = request({ headers: withHeader('Origin', 'HTTP://Example.com') })
  assert.ok(E.isRight(validateUpgrade(req, { allowedOrigins: ['http://example.com'] })))
  assert.ok(E.isRight(validateUpgrade(req, { allowedOrigins: ['*'] })))
})

test('validateUpgrade :: a method other than GET is 400', () => {
  const err = refusal(request({ method: 'POST' }))
  assert.equal([err._tag, err.status], ['MethodNotGet', 400])
})

test('validateUpgrade :: HTTP/1.0 is 400', () => {
  const err = refusal(request({ protocol: 'HTTP/1.0' }))
  assert.equal([err._tag, err.status], ['NotHttp11', 400])
})

test('validateUpgrade :: an Upgrade without websocket is 400', () => {
  const err = refusal(request({ headers: withHeader('Upgrade', 'h2c') }))
  assert.equal([err._tag, err.status], ['NotWebSocketUpgrade', 400])
})

test('validateUpgrade :: a Connection without upgrade is 400', () => {
  for (const value of [undefined, 'keep-alive', 'upgraded']) {
    const err = refusal(request({ headers: withHeader('Connection', value) }))
    assert.equal([err._tag, err.status], ['MissingConnectionUpgrade', 400], String(value))
  }
})

test('validateUpgrade :: a version other than 13, or none, is 426 with Sec-WebSocket-Version: 13', () => {
  for (const value of [undefined, '8', '14', '13, 8', '']) {
    const err = refusal(request({ headers: withHeader('Sec-WebSocket-Version', value) }))
    assert.equal([err._tag, err.status, err.headers], ['UnsupportedVersion', 426, [['Sec-WebSocket-Version', '13']]], String(value))
  }
})

test('validateUpgrade :: a key that is not 16 bytes of base64 is 400', () => {
  const bad = [undefined, '', 'dGhlIHNhbXBsZSBub25jZQ', 'dGhlIHNhbXBsZSBub25jZQ=', 'dGhlIHNhbXBsZSBub25jZR==', 'dGhlIHNhbXBsZSBub25jZQ==x', 'dGhlIHNhbXBsZSBub25j*Q==']
  for (const value of bad) {
    const err = refusal(request({ headers: withHeader('Sec-WebSocket-Key', value) }))
    assert.equal([err._tag, err.status], ['InvalidKey', 400], String(value))
  }
})

test('validateUpgrade :: two keys are 400', () => {
  const err = refusal(request({ headers: [...SAMPLE, ['Sec-WebSocket-Key', 'AAAAAAAAAAAAAAAAAAAAAA==']] }))
  assert.equal([err._tag, err.status], ['InvalidKey', 400])
})

test('validateUpgrade :: an origin not in the list is 403', () => {
  const err = refusal(request(), { allowedOrigins: ['https://app.example'] })
  assert.equal(err, { _tag: 'OriginNotAllowed', status: 403, headers: [], reason: 'origin not allowed', origin: 'http://example.com' })
  assert.is(refusal(request(), { allowedOrigins: [] })._tag, 'OriginNotAllowed')
})

test('handshakeResponse :: RFC 6455 §1.3 sample response, byte for byte', () => {
  const upgrade = { key: 'dGhlIHNhbXBsZSBub25jZQ==', accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=', protocol: 'chat', path: '/chat', rawQuery: '' }
  assert.is(
    new TextDecoder().decode(handshakeResponse(upgrade)),
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\nSec-WebSocket-Protocol: chat\r\n\r\n',
  )
})

test('handshakeResponse :: without a subprotocol, with extra headers', () => {
  const upgrade = { key: 'k', accept: 'a', path: '/', rawQuery: '' }
  assert.is(
    new TextDecoder().decode(handshakeResponse(upgrade, [['X-Server', 'twinport']])),
    'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: a\r\nX-Server: twinport\r\n\r\n',
  )
})

test('validateUpgrade :: uses an injected acceptKey for Sec-WebSocket-Accept', () => {
  const seen: string[] = []
  const result = validateUpgrade(request(), { allowedOrigins: ['*'], acceptKey: (key) => (seen.push(key), 'injected') })
  assert.ok(E.isRight(result) && result.right.accept === 'injected')
  assert.equal(seen, ['dGhlIHNhbXBsZSBub25jZQ=='])
})

test.run()

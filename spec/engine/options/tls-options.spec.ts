import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_LIMITS } from '../../../lib/engine/options/limits.js'
import { resolveOptions, resolveTlsOptions, type ServerOptions, type TlsOptions } from '../../../lib/engine/options/server-options.js'
import { pemCodec, pemList, TLS_FIELDS, tlsCodec } from '../../../lib/engine/options/tls-options.js'

// The shape only: these strings are not real PEM, and this layer does not parse PEM.
const KEY = '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n'
const CERT = '-----BEGIN CERTIFICATE-----\nBBBB\n-----END CERTIFICATE-----\n'
const BYTES = new TextEncoder().encode(CERT)

const errors = (options: unknown): readonly string[] => {
  const r = resolveOptions(options as ServerOptions)
  return E.isLeft(r) ? r.left : []
}

test('pemCodec :: accepts PEM as a string, bytes, or a non-empty array of them', () => {
  for (const ok of [KEY, BYTES, [KEY], [KEY, BYTES]]) assert.ok(pemCodec.is(ok) && E.isRight(pemCodec.decode(ok)), String(ok))
  for (const bad of ['', '  \n', new Uint8Array(0), [], [KEY, ''], [KEY, 1], 42, null, undefined, { pem: KEY }]) {
    assert.not.ok(pemCodec.is(bad), JSON.stringify(bad))
    assert.ok(E.isLeft(pemCodec.decode(bad)))
  }
})

test('tlsCodec :: key and cert are required; ca and passphrase are optional', () => {
  assert.ok(E.isRight(tlsCodec.decode({ key: KEY, cert: CERT })))
  assert.ok(E.isRight(tlsCodec.decode({ key: KEY, cert: CERT, ca: [CERT], passphrase: 'p' })))
  assert.ok(E.isLeft(tlsCodec.decode({ key: KEY })))
  assert.ok(E.isLeft(tlsCodec.decode({ key: KEY, cert: CERT, passphrase: 7 })))
  assert.ok(E.isLeft(tlsCodec.decode('key.pem')))
  assert.equal(TLS_FIELDS, ['key', 'cert', 'ca', 'passphrase'])
})

test('pemList :: one PEM is one element, an array stays, absent is empty', () => {
  assert.equal(pemList(KEY), [KEY])
  assert.equal(pemList(BYTES), [BYTES])
  assert.equal(pemList([KEY, CERT]), [KEY, CERT])
  assert.equal(pemList(undefined), [])
})

test('resolveOptions :: tls is kept as given; without it the resolved options have no tls', () => {
  const tls: TlsOptions = { key: KEY, cert: [CERT, BYTES], passphrase: 'p' }
  const r = resolveOptions({ tls })
  assert.ok(E.isRight(r) && r.right.tls === tls)
  const plain = resolveOptions({})
  assert.ok(E.isRight(plain) && !('tls' in plain.right))
  assert.is(DEFAULT_LIMITS.tlsHandshakeTimeoutMs, 10_000)
  const timed = resolveOptions({ tls, limits: { tlsHandshakeTimeoutMs: 500 } })
  assert.ok(E.isRight(timed) && timed.right.limits.tlsHandshakeTimeoutMs === 500)
})

test('resolveOptions :: each bad tls field is named with what was expected', () => {
  assert.equal(errors({ tls: { cert: CERT } }), ['tls.key: expected PEM text (a non-empty string or Uint8Array, or an array of them), got undefined'])
  assert.equal(errors({ tls: { key: KEY, cert: CERT, ca: [], passphrase: 1 } }), [
    'tls.ca: expected PEM text (a non-empty string or Uint8Array, or an array of them), got []',
    'tls.passphrase: expected string, got 1',
  ])
  assert.equal(errors({ tls: 'cert.pem' }), ['tls: expected an object with key and cert, got "cert.pem"'])
  assert.equal(errors({ tls: { key: KEY, cert: CERT, certificate: CERT, dhparam: 'x' } }), [
    'tls.certificate: not a TLS option (known: key, cert, ca, passphrase)',
    'tls.dhparam: not a TLS option (known: key, cert, ca, passphrase)',
  ])
  assert.equal(errors({ limits: { tlsHandshakeTimeoutMs: 0 } }), ['limits.tlsHandshakeTimeoutMs: expected a positive integer, got 0'])
})

test('resolveTlsOptions :: checks a reload the way runServer checks tls', () => {
  const tls: TlsOptions = { key: KEY, cert: CERT }
  assert.equal(resolveTlsOptions(tls), E.right(tls))
  assert.equal(resolveTlsOptions({ key: KEY } as never), E.left(['tls.cert: expected PEM text (a non-empty string or Uint8Array, or an array of them), got undefined']))
  assert.equal(resolveTlsOptions(null as never), E.left(['tls: expected an object with key and cert']))
  assert.equal(resolveTlsOptions({ key: KEY, cert: CERT, ciphers: 'x' } as never), E.left(['tls.ciphers: not a TLS option (known: key, cert, ca, passphrase)']))
})

test.run()

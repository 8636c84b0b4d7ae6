/**
 * `checkTlsMaterial` and `parseKeys` against real keys and certificates made by `openssl`
 * at test time: every problem is one line naming the option (and the element of a list).
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { checkTlsMaterial, parseKeys } from '../../../lib/runtime/tls/tls-material.js'
import { secureContextOf } from '../../../lib/runtime/tls/tls-acceptor.js'
import { type Issued, makeTestCa, type TestCa } from '../../support/test-certificates.js'

interface Ctx {
  ca: TestCa
  a: Issued
  b: Issued
}

const Material = suite<Ctx>('checkTlsMaterial', {} as Ctx)

Material.before((ctx) => {
  ctx.ca = makeTestCa()
  ctx.a = ctx.ca.issue('a.test')
  ctx.b = ctx.ca.issue('b.test')
})

Material.after((ctx) => ctx.ca.remove())

Material('checkTlsMaterial :: a matching key and certificate, as text or bytes, with the authority: no problem', ({ a, ca }) => {
  const bytes = (s: string): Uint8Array => new TextEncoder().encode(s)
  assert.equal(checkTlsMaterial({ key: a.key, cert: a.cert }), [])
  assert.equal(checkTlsMaterial({ key: bytes(a.key), cert: [bytes(a.cert)], ca: ca.ca }), [])
  // A chain: the server's certificate first, then the authority's.
  assert.equal(checkTlsMaterial({ key: a.key, cert: a.cert + ca.ca }), [])
})

Material('checkTlsMaterial :: several keys, each certificate belonging to one of them', ({ a, b }) => {
  assert.equal(checkTlsMaterial({ key: [a.key, b.key], cert: [b.cert, a.cert] }), [])
  assert.equal(checkTlsMaterial({ key: [a.key, a.key], cert: [a.cert, b.cert] }), ['tls.cert: the certificate (CN=b.test) does not belong to any of tls.key'])
})

Material('checkTlsMaterial :: names the field, and the element of a list, that is not PEM', ({ a, ca }) => {
  const problems = checkTlsMaterial({ key: [a.key, 'junk'], cert: [a.cert, a.key], ca: [ca.ca, 'junk'] })
  assert.is(problems.length, 3)
  assert.match(problems[0] ?? '', /^tls\.key\.1: not a private key in PEM \(.+\)$/)
  assert.match(problems[1] ?? '', /^tls\.cert\.1: not a certificate in PEM \(.+\)$/)
  assert.match(problems[2] ?? '', /^tls\.ca\.1: not a certificate in PEM \(.+\)$/)
  assert.match(checkTlsMaterial({ key: a.cert, cert: a.cert })[0] ?? '', /^tls\.key: not a private key in PEM/)
})

Material('checkTlsMaterial :: a certificate that is not the key\'s', ({ a, b }) => {
  assert.equal(checkTlsMaterial({ key: b.key, cert: a.cert }), ['tls.cert: the certificate (CN=a.test) does not belong to tls.key'])
})

Material('parseKeys :: an encrypted key needs its passphrase, and only the right one decrypts it', ({ a, ca }) => {
  const encrypted = ca.encryptKey(a, 'right')
  assert.equal(parseKeys({ key: encrypted, cert: a.cert }).problems, ['tls.key: the key is encrypted; give its passphrase as tls.passphrase'])
  assert.equal(parseKeys({ key: encrypted, cert: a.cert, passphrase: 'wrong' }).problems, ['tls.passphrase: does not decrypt tls.key'])
  const good = parseKeys({ key: encrypted, cert: a.cert, passphrase: 'right' })
  assert.equal(good.problems, [])
  assert.is(good.keys[0]?.asymmetricKeyType, 'ec')
  assert.equal(checkTlsMaterial({ key: encrypted, cert: a.cert, passphrase: 'right' }), [])
})

Material('secureContextOf :: a context for good material; an Error listing each problem otherwise', ({ a, b }) => {
  assert.ok(secureContextOf({ key: a.key, cert: a.cert }).context !== undefined)
  assert.throws(() => secureContextOf({ key: 'junk', cert: b.key }), (error: Error) => /^tls\.key: not a private key in PEM .*\n {2}tls\.cert: not a certificate in PEM/s.test(error.message))
})

Material.run()

/**
 * `checkTlsMaterial`: whether the PEM texts of a `TlsOptions` are what they claim to be,
 * before a server serves them: each key parses (decrypted with the passphrase when it is
 * encrypted), each certificate parses, and each chain's first certificate belongs to one of
 * the keys. A problem is a line naming the option (`tls.key: …`), so a bad file is a clear
 * start-up error rather than a handshake that fails later for every client. Uses
 * `node:crypto`, which Bun and Deno provide too: all three adapters share it. Part of the shared runtime layer (lib/runtime/):
 * imports the engine and `node:*`, never an adapter.
 */
import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto'
import { type Pem, pemList, type TlsOptions } from '../../engine/options/tls-options.js'

/** PEM as node:crypto and node:tls take it: a string, or a Buffer viewing the bytes (no copy). */
export const asInput = (pem: Pem): string | Buffer => (typeof pem === 'string' ? pem : Buffer.from(pem.buffer, pem.byteOffset, pem.byteLength))

const text = (pem: Pem): string => (typeof pem === 'string' ? pem : new TextDecoder().decode(pem))

const reason = (error: unknown): string => (error instanceof Error ? error.message : String(error))

// An encrypted PEM key says so: "BEGIN ENCRYPTED PRIVATE KEY" (PKCS #8) or "Proc-Type: 4,ENCRYPTED".
const isEncrypted = (pem: Pem): boolean => text(pem).includes('ENCRYPTED')

/**
 * Parses each key of `tls` (decrypted when a passphrase is given): the keys that parsed, and
 * a line per key that did not.
 *
 * @example
 * parseKeys({ key: encryptedPem, cert, passphrase: 'wrong' }) // { keys: [], problems: ['tls.passphrase: does not decrypt tls.key'] }
 */
export const parseKeys = (tls: TlsOptions): { readonly keys: readonly KeyObject[]; readonly problems: readonly string[] } => {
  const keys: KeyObject[] = []
  const problems: string[] = []
  const all = pemList(tls.key)
  all.forEach((pem, i) => {
    const name = all.length > 1 ? `tls.key.${i}` : 'tls.key'
    try {
      keys.push(createPrivateKey(tls.passphrase === undefined ? { key: asInput(pem) } : { key: asInput(pem), passphrase: tls.passphrase }))
    } catch (error) {
      if (!isEncrypted(pem)) problems.push(`${name}: not a private key in PEM (${reason(error)})`)
      else if (tls.passphrase === undefined) problems.push(`${name}: the key is encrypted; give its passphrase as tls.passphrase`)
      else problems.push(`tls.passphrase: does not decrypt ${name}`)
    }
  })
  return { keys, problems }
}

const parseCertificates = (field: 'cert' | 'ca', pems: readonly Pem[], problems: string[]): X509Certificate[] =>
  pems.flatMap((pem, i) => {
    try {
      return [new X509Certificate(asInput(pem))]
    } catch (error) {
      problems.push(`tls.${field}${pems.length > 1 ? `.${i}` : ''}: not a certificate in PEM (${reason(error)})`)
      return []
    }
  })

/**
 * The problems of `tls`'s material, one line each; empty when it can be served.
 *
 * @example
 * checkTlsMaterial({ key: readFileSync('key.pem'), cert: readFileSync('cert.pem') }) // []
 * checkTlsMaterial({ key: otherKey, cert })  // ['tls.cert: the certificate (CN=localhost) does not belong to tls.key']
 */
export const checkTlsMaterial = (tls: TlsOptions): readonly string[] => {
  const { keys, problems: keyProblems } = parseKeys(tls)
  const problems = [...keyProblems]
  const certs = parseCertificates('cert', pemList(tls.cert), problems)
  parseCertificates('ca', pemList(tls.ca), problems)
  if (problems.length > 0) return problems
  // X509Certificate reads a chain's first certificate: the one the key must match.
  for (const cert of certs) {
    if (!keys.some((key) => cert.checkPrivateKey(key))) {
      problems.push(`tls.cert: the certificate (${cert.subject.replaceAll('\n', ', ')}) does not belong to ${keys.length > 1 ? 'any of tls.key' : 'tls.key'}`)
    }
  }
  return problems
}

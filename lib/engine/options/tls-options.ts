/**
 * The `tls` option of `runServer`: the key and certificate that turn the port into
 * `https://` and `wss://`, one shape for every adapter (Node, Bun, Deno). This file checks
 * the shape only (io-ts, since the material usually comes from files named in the
 * configuration); whether the PEM text is a key, a certificate and a matching pair is the
 * adapter's check at start-up (`lib/runtime/tls/tls-material.ts`).
 * Must not import `node:*`, Buffer or process.
 */
import * as t from 'io-ts'

/** PEM text, as a string or its bytes (what a file read answers). */
export type Pem = string | Uint8Array

/** TLS for the server's one port: `https://` and `wss://`, HTTP/1.1 only (ALPN `http/1.1`). */
export interface TlsOptions {
  /** The private key in PEM (several for several key types, on Node and Bun). */
  readonly key: Pem | readonly Pem[]
  /** The certificate chain in PEM: the server's certificate first, then the intermediates. */
  readonly cert: Pem | readonly Pem[]
  /**
   * Certificates of the authorities that complete the chain (Node, Bun). Not on Deno:
   * put the intermediates after the server's certificate in `cert` there.
   */
  readonly ca?: Pem | readonly Pem[]
  /** The passphrase of an encrypted `key`. */
  readonly passphrase?: string
}

/** The fields of `TlsOptions`; any other is refused, so a typo cannot go unnoticed. */
export const TLS_FIELDS: readonly (keyof TlsOptions)[] = ['key', 'cert', 'ca', 'passphrase']

const isPem = (u: unknown): u is Pem => (typeof u === 'string' && u.trim() !== '') || (u instanceof Uint8Array && u.length > 0)

const isPemList = (u: unknown): u is Pem | readonly Pem[] => isPem(u) || (Array.isArray(u) && u.length > 0 && u.every(isPem))

/** PEM text, or a non-empty array of PEM texts; a string or a Uint8Array each. */
export const pemCodec = new t.Type<Pem | readonly Pem[], Pem | readonly Pem[], unknown>(
  'PEM text (a non-empty string or Uint8Array, or an array of them)',
  isPemList,
  (u, c) => (isPemList(u) ? t.success(u) : t.failure(u, c)),
  (p) => p,
)

// An optional field that keeps its codec's name, so a bad value reads "tls.ca: expected PEM text".
const optional = <A>(codec: t.Type<A, A, unknown>): t.Type<A | undefined, A | undefined, unknown> =>
  new t.Type<A | undefined, A | undefined, unknown>(
    codec.name,
    (u): u is A | undefined => u === undefined || codec.is(u),
    (u, c) => (u === undefined ? t.success(undefined) : codec.validate(u, c)),
    (a) => a,
  )

/** The shape of `TlsOptions` (unknown fields are checked apart, against `TLS_FIELDS`). */
export const tlsCodec = t.type({ key: pemCodec, cert: pemCodec, ca: optional(pemCodec), passphrase: optional(t.string) }, 'an object with key and cert')

/**
 * The PEM texts of one field, as an array (one text stays one element).
 *
 * @example
 * pemList('-----BEGIN CERTIFICATE-----…') // ['-----BEGIN CERTIFICATE-----…']
 * pemList(undefined)                       // []
 */
export const pemList = (pem: Pem | readonly Pem[] | undefined): readonly Pem[] => {
  if (pem === undefined) return []
  return typeof pem === 'string' || pem instanceof Uint8Array ? [pem] : pem
}

/**
 * A self-signed certificate for 127.0.0.1, made by the `openssl` command (Debian's) in a
 * temporary directory when the harness starts a TLS workload, and removed when it exits.
 * wrk does not verify certificates; the harness's own probe trusts this one. No key is kept
 * in the repository.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Where the key and certificate are, the certificate's text, and how to delete them. */
export interface SelfSigned {
  readonly keyPath: string
  readonly certPath: string
  readonly cert: string
  readonly remove: () => void
}

/**
 * Makes an EC P-256 key and a certificate for 127.0.0.1 valid for a day. Throws when
 * `openssl` is missing.
 *
 * @example
 * const tls = makeSelfSigned()
 * startServer(script, undefined, [], { TLS_KEY: tls.keyPath, TLS_CERT: tls.certPath })
 */
export const makeSelfSigned = (): SelfSigned => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-bench-tls-'))
  const keyPath = join(dir, 'key.pem')
  const certPath = join(dir, 'cert.pem')
  try {
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', keyPath, '-out', certPath,
    ], { stdio: ['ignore', 'ignore', 'pipe'] })
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`openssl failed or is missing (apt-get install -y openssl): ${(error as Error).message}`)
  }
  return { keyPath, certPath, cert: readFileSync(certPath, 'utf8'), remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/**
 * Certificates made at test time with the `openssl` command (Debian's `openssl` package),
 * in a temporary directory that `remove()` deletes: a throw-away certificate authority,
 * and server certificates it signs for `127.0.0.1` and `localhost`. No key is ever kept in
 * the repository. EC P-256 keys: quick to make, accepted by every client in the suite.
 * Runs in Node, Bun and Deno (node:child_process, node:fs).
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A server certificate and its key, as PEM text and as files. */
export interface Issued {
  /** The common name it was issued for (what a client sees as the subject). */
  readonly name: string
  readonly key: string
  readonly cert: string
  readonly keyPath: string
  readonly certPath: string
}

/** A throw-away certificate authority in a temporary directory. */
export interface TestCa {
  readonly dir: string
  /** The authority's certificate (PEM): what a client trusts. */
  readonly ca: string
  readonly caPath: string
  /** A new key and a certificate for `name`, valid for 127.0.0.1 and localhost. */
  issue(name: string): Issued
  /** `issued`'s key encrypted with `passphrase` (AES-256), as PEM. */
  encryptKey(issued: Issued, passphrase: string): string
  /** Deletes the directory and everything in it. */
  remove(): void
}

const openssl = (args: readonly string[], cwd: string): void => {
  execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] })
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes']

// A server certificate, as browsers and Node want one: the names in subjectAltName, not a CA.
const SERVER_EXTENSIONS = [
  'subjectAltName=IP:127.0.0.1,DNS:localhost',
  'basicConstraints=critical,CA:FALSE',
  'keyUsage=critical,digitalSignature',
  'extendedKeyUsage=serverAuth',
].join('\n')

/**
 * A new authority. Throws when `openssl` is missing (Debian: `apt-get install -y openssl`).
 *
 * @example
 * const authority = makeTestCa()
 * const { key, cert } = authority.issue('server-1')
 * // … runServer({ tls: { key, cert } }), clients trust authority.ca …
 * authority.remove()
 */
export const makeTestCa = (): TestCa => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-tls-'))
  try {
    openssl(['req', '-x509', ...EC, '-days', '2', '-subj', '/CN=twinport test CA', '-keyout', 'ca.key', '-out', 'ca.pem'], dir)
  } catch (error) {
    rmSync(dir, { recursive: true, force: true })
    throw new Error(`the openssl command failed or is missing (Debian: apt-get install -y openssl): ${(error as Error).message}`)
  }
  writeFileSync(join(dir, 'server.ext'), `${SERVER_EXTENSIONS}\n`)
  let serial = 1
  const issue = (name: string): Issued => {
    const base = name.replace(/[^\w-]/g, '_')
    openssl(['req', ...EC, '-subj', `/CN=${name}`, '-keyout', `${base}.key`, '-out', `${base}.csr`], dir)
    serial += 1
    openssl(['x509', '-req', '-in', `${base}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-set_serial', String(serial), '-days', '2', '-extfile', 'server.ext', '-out', `${base}.pem`], dir)
    const keyPath = join(dir, `${base}.key`)
    const certPath = join(dir, `${base}.pem`)
    return { name, key: readFileSync(keyPath, 'utf8'), cert: readFileSync(certPath, 'utf8'), keyPath, certPath }
  }
  const encryptKey = (issued: Issued, passphrase: string): string => {
    const out = `${issued.keyPath}.enc`
    openssl(['pkey', '-in', issued.keyPath, '-aes256', '-passout', `pass:${passphrase}`, '-out', out], dir)
    return readFileSync(out, 'utf8')
  }
  return {
    dir,
    ca: readFileSync(join(dir, 'ca.pem'), 'utf8'),
    caPath: join(dir, 'ca.pem'),
    issue,
    encryptKey,
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

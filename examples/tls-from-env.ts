/**
 * TLS for the examples from the environment: `TLS_KEY` and `TLS_CERT` name PEM files (the
 * private key, and the certificate chain). With both, `npm start` and `npm run
 * example:echo` serve `https://` and `wss://`; with neither, plain HTTP; with one, they
 * refuse to start and say which is missing. SIGHUP reads the files again and serves the new
 * certificate to new connections (after a renewal), as nginx does on `kill -HUP`.
 */
import { readFileSync } from 'node:fs'
import type { ServerHandle, TlsOptions } from '../lib/index.js'

type Env = Readonly<Record<string, string | undefined>>

const read = (variable: string, path: string): Buffer => {
  try {
    return readFileSync(path)
  } catch (error) {
    throw new Error(`${variable}=${path}: cannot read it (${(error as Error).message})`)
  }
}

/**
 * The `tls` option named by `TLS_KEY` and `TLS_CERT`, or undefined when neither is set.
 * Throws when only one is set or a file cannot be read.
 *
 * @example
 * const server = await runServer({ routes, tls: tlsFromEnv() })   // TLS_KEY=key.pem TLS_CERT=cert.pem
 */
export const tlsFromEnv = (env: Env = process.env): TlsOptions | undefined => {
  const key = env.TLS_KEY?.trim() ?? ''
  const cert = env.TLS_CERT?.trim() ?? ''
  if (key === '' && cert === '') return undefined
  if (key === '' || cert === '') throw new Error(`TLS needs both TLS_KEY and TLS_CERT (files in PEM); ${key === '' ? 'TLS_KEY' : 'TLS_CERT'} is not set`)
  return { key: read('TLS_KEY', key), cert: read('TLS_CERT', cert) }
}

/**
 * On SIGHUP, reads `TLS_KEY` and `TLS_CERT` again and hands them to `server.setSecureContext`,
 * logging the outcome (a bad file or a runtime without reload is a warning; the server keeps
 * its certificate). Answers the function that removes the listener.
 *
 * @example
 * const stopReloading = reloadTlsOnHangup(server)   // then: kill -HUP <pid>
 */
export const reloadTlsOnHangup = (server: ServerHandle, env: Env = process.env): (() => void) => {
  const reload = (): void => {
    Promise.resolve()
      .then(() => tlsFromEnv(env))
      .then((tls) => (tls === undefined ? Promise.reject(new Error('TLS_KEY and TLS_CERT are no longer set')) : server.setSecureContext(tls)))
      .then(
        () => server.logger.info('SIGHUP: new connections get the certificate in {cert}', { cert: env.TLS_CERT }),
        (error: unknown) => server.logger.warning('SIGHUP: certificate not reloaded: {error}', { error: (error as Error).message }),
      )
  }
  process.on('SIGHUP', reload)
  return () => void process.off('SIGHUP', reload)
}

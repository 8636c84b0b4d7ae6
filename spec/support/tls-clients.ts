/**
 * TLS clients for integration specs: an `https` request on a fresh connection, and a raw
 * TLS connection that collects what it reads (like `rawConnect`, with the certificate the
 * server presented and the protocol ALPN chose). The test authority's certificate is the
 * only one trusted. Every wait is bounded.
 */
import { request } from 'node:https'
import { connect, type TLSSocket } from 'node:tls'
import { eventually } from './server.js'

export interface HttpsAnswer {
  readonly status: number
  readonly body: string
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
}

/** One request over a new TLS connection (no agent: a reload is seen by the next request). */
export const httpsRequest = (port: number, path: string, ca: string, init: { method?: string; body?: string; ms?: number } = {}): Promise<HttpsAnswer> =>
  new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: init.method ?? 'GET', ca, agent: false, timeout: init.ms ?? 5000 }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }))
    })
    req.on('timeout', () => req.destroy(new Error(`no answer to ${path} within ${init.ms ?? 5000} ms`)))
    req.on('error', reject)
    req.end(init.body)
  })

/** A raw TLS connection. */
export interface SecureConnection {
  readonly socket: TLSSocket
  /** The common name of the certificate the server presented. */
  readonly servedName: string | undefined
  /** The protocol ALPN chose (`false` when none). */
  readonly alpn: string | false
  received(): Buffer
  until(check: (data: Buffer) => boolean, ms?: number): Promise<Buffer>
  closed(ms?: number): Promise<Buffer>
  write(data: string | Uint8Array): void
}

/** Connects with TLS, trusting `ca` only, offering `alpn` (default h2 and http/1.1, as browsers do). */
export const secureConnect = (port: number, ca: string, alpn: readonly string[] = ['h2', 'http/1.1']): Promise<SecureConnection> =>
  new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca, servername: 'localhost', ALPNProtocols: [...alpn] })
    const chunks: Buffer[] = []
    let ended = false
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    socket.on('close', () => {
      ended = true
    })
    socket.once('error', reject)
    socket.once('secureConnect', () => {
      socket.off('error', reject)
      socket.on('error', () => undefined)
      const data = (): Buffer => Buffer.concat(chunks)
      resolve({
        socket,
        servedName: socket.getPeerCertificate().subject?.CN as string | undefined,
        alpn: socket.alpnProtocol ?? false,
        received: data,
        until: async (check, ms = 2000) => {
          await eventually(() => check(data()), ms, 'the expected bytes over TLS')
          return data()
        },
        closed: async (ms = 2000) => {
          await eventually(() => ended, ms, 'the server to close the TLS connection')
          return data()
        },
        write: (chunk) => void socket.write(chunk),
      })
    })
  })

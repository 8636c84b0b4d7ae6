/**
 * The part of Bun's documented TCP API (`Bun.listen`, https://bun.sh/docs/api/tcp) the
 * adapter uses, typed here so the project needs no Bun type package.
 */
import type { TlsOptions } from '../engine/options/tls-options.js'

export interface BunSocket<D> {
  data: D
  /** Writes what the kernel takes now; answers how many bytes that was (the rest is ours to keep). */
  write(data: Uint8Array): number
  /** Half-close: sends FIN once what was written is out. */
  shutdown(): void
  /** Drops the connection now. */
  terminate(): void
  setNoDelay(enabled: boolean): boolean
  /** Stops reading: no `data` until `resume` (the peer sees TCP backpressure). */
  pause(): void
  /** Reads again after `pause`. */
  resume(): void
  /** The peer's IP address. */
  readonly remoteAddress?: string
}

export interface BunSocketHandler<D> {
  /** What `data` is given: `'uint8array'` for plain `Uint8Array`s (the default is Buffer). */
  readonly binaryType?: 'buffer' | 'uint8array' | 'arraybuffer'
  open(socket: BunSocket<D>): void
  data(socket: BunSocket<D>, data: Uint8Array): void
  drain(socket: BunSocket<D>): void
  end(socket: BunSocket<D>): void
  close(socket: BunSocket<D>, error?: Error): void
  error(socket: BunSocket<D>, error: Error): void
  /** A TLS handshake is over; `authorizationError` is about client certificates, which are not asked for. */
  handshake?(socket: BunSocket<D>, success: boolean, authorizationError: Error): void
}

export interface BunListener {
  readonly port: number
  readonly hostname: string
  stop(closeActiveConnections?: boolean): void
}

export interface BunTlsOptions {
  readonly key?: string | Uint8Array | readonly (string | Uint8Array)[]
  readonly cert?: string | Uint8Array | readonly (string | Uint8Array)[]
  readonly ca?: string | Uint8Array | readonly (string | Uint8Array)[]
  readonly passphrase?: string
  /** ALPN protocols in their wire format (each name after its length byte). */
  readonly ALPNProtocols?: ArrayBuffer
}

// ALPN's wire format (RFC 7301 §3.1): each protocol name preceded by its length in one byte.
const HTTP_1_1_ALPN = new Uint8Array([8, ...new TextEncoder().encode('http/1.1')]).buffer

/**
 * `Bun.listen`'s `tls` for twinport's `TlsOptions`: the same fields, and ALPN `http/1.1`.
 *
 * @example
 * const tls = bunTls({ key: readFileSync('key.pem', 'utf8'), cert: readFileSync('cert.pem', 'utf8') })
 * new Uint8Array(tls.ALPNProtocols!) // 08 68 74 74 70 2f 31 2e 31: "http/1.1" after its length
 * bunApi()?.listen<Conn>({ hostname: '127.0.0.1', port: 8443, tls, socket: handlers })
 */
export const bunTls = (tls: TlsOptions): BunTlsOptions => ({ ...tls, ALPNProtocols: HTTP_1_1_ALPN })

export interface BunApi {
  listen<D>(options: {
    readonly hostname: string
    readonly port: number
    readonly allowHalfOpen?: boolean
    readonly tls?: BunTlsOptions
    readonly socket: BunSocketHandler<D>
  }): BunListener
}

/**
 * The `Bun` global, or undefined outside Bun.
 *
 * @example
 * const bun = bunApi()
 * if (bun === undefined) throw new Error('twinport/bun needs the Bun runtime')
 */
export const bunApi = (): BunApi | undefined => (globalThis as { Bun?: BunApi }).Bun

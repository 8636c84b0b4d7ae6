/**
 * The part of Bun's documented TCP API (`Bun.listen`, https://bun.sh/docs/api/tcp) the
 * adapter uses, typed here so the project needs no Bun type package.
 */

export interface BunSocket<D> {
  data: D
  /** Writes what the kernel takes now; answers how many bytes that was (the rest is ours to keep). */
  write(data: Uint8Array): number
  /** Half-close: sends FIN once what was written is out. */
  shutdown(): void
  /** Drops the connection now. */
  terminate(): void
  setNoDelay(enabled: boolean): boolean
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
}

export interface BunApi {
  listen<D>(options: {
    readonly hostname: string
    readonly port: number
    readonly allowHalfOpen?: boolean
    readonly tls?: BunTlsOptions
    readonly socket: BunSocketHandler<D>
  }): BunListener
}

/** The `Bun` global, or undefined outside Bun. */
export const bunApi = (): BunApi | undefined => (globalThis as { Bun?: BunApi }).Bun

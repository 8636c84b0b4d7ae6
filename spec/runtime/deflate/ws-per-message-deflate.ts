/**
 * The `ws` package's own PerMessageDeflate as an independent peer for the codec specs: a
 * client that has received the server's answer `params` (RFC 7692 §7.1), compressing what
 * it sends and inflating what it receives exactly as `ws` does on the wire.
 *
 * Test-only. ws exports no such class, so it is loaded from its file.
 */
import { createRequire } from 'node:module'

const require = createRequire(import.meta.url)

interface WsPerMessageDeflate {
  accept(configurations: ReadonlyArray<Record<string, ReadonlyArray<string | true>>>): unknown
  compress(data: Uint8Array, fin: boolean, callback: (error: Error | null, result?: Buffer) => void): void
  decompress(data: Uint8Array, fin: boolean, callback: (error: Error | null, result?: Buffer) => void): void
  cleanup(): void
}

type WsPerMessageDeflateClass = new (options: Record<string, unknown>, isServer: boolean, maxPayload: number) => WsPerMessageDeflate

const PerMessageDeflate = require(require.resolve('ws').replace(/index\.js$/, 'lib/permessage-deflate.js')) as WsPerMessageDeflateClass

/** A ws client-side peer. */
export interface WsPeer {
  /** Compresses a message as the ws client sends it (tail removed). */
  compress(message: Uint8Array): Promise<Uint8Array>
  /** Inflates a compressed message the ws client receives. */
  decompress(payload: Uint8Array): Promise<Uint8Array>
  close(): void
}

/**
 * A ws client that got `answer` from the server, e.g.
 * `{ server_no_context_takeover: [true], server_max_window_bits: ['10'] }`.
 *
 * @example const peer = wsPeer({ server_no_context_takeover: [true] })
 */
export const wsPeer = (answer: Record<string, ReadonlyArray<string | true>>, options: Record<string, unknown> = {}): WsPeer => {
  const pmd = new PerMessageDeflate(options, false, 0)
  pmd.accept([answer])
  const call =
    (method: 'compress' | 'decompress') =>
    (bytes: Uint8Array): Promise<Uint8Array> =>
      new Promise((resolve, reject) => pmd[method](bytes, true, (error, result) => (error === null ? resolve(result as Buffer) : reject(error))))
  return { compress: call('compress'), decompress: call('decompress'), close: () => pmd.cleanup() }
}

/**
 * `runServer` on Node (`twinport`): the adapter between the OS's sockets and the portable
 * engine (`lib/engine/`). Two transports carry the same engine: `node:net` (the shared
 * server of lib/runtime/serve-net.ts with Node's platform; the default, and the one that
 * serves `tls`, `path` and `handle`) and twinport's native addon (lib/native/, with
 * `transport: 'native'`), which falls back to `node:net` with one warning when it cannot
 * serve (no binary for this system, a binary that does not load, or an option only
 * `node:net` has). It holds no protocol, room or time-out logic of its own.
 *
 * Imports the engine's types, the shared runtime layer (lib/runtime/) and lib/native only,
 * never another adapter.
 */
import type { ServerHandle } from '../engine/server-handle.js'
import { loadNativeBinding } from '../native/native-binding.js'
import { serveNative } from '../native/serve-native.js'
import { nodePlatform } from '../runtime/node-platform.js'
import { type NetServerOptions, serveNet } from '../runtime/serve-net.js'

/** What carries the bytes: twinport's native addon, or `node:net`. */
export type Transport = 'native' | 'net'

/**
 * Options of `runServer` on Node: the shared options, two more ways to listen (`path`,
 * `handle`), and the transport.
 */
export interface NodeServerOptions extends NetServerOptions {
  /**
   * `'net'` (the default): `node:net` and `node:tls`. `'native'`: twinport's addon (epoll
   * through libuv's loop, `writev`, no stream object per connection; Linux, built with
   * `make -C native`). Without a usable binary, or with `tls`, `path` or `handle`, the
   * server starts on `node:net` and logs one warning saying why.
   */
  readonly transport?: Transport
  /**
   * With `transport: 'native'` on Linux: the listening socket gets `SO_REUSEPORT`, so several
   * processes (node:cluster workers, or plain processes started side by side) each listen on
   * the same `host`:`port` with an accept queue of their own, and the kernel spreads new
   * connections over them: no primary process hands connections round-robin. Every listener
   * on the port must set it. On `node:net` (Node 20 has no such listen option) it is ignored
   * with a warning. Default false.
   */
  readonly reusePort?: boolean
}

// Why the native transport cannot serve `options`, or undefined when it can.
const nativeRefusal = (options: NodeServerOptions): string | undefined => {
  if (options.tls !== undefined) return 'TLS is served by node:tls'
  if (options.path !== undefined) return 'a Unix socket path is served by node:net'
  if (options.handle !== undefined) return 'a listening handle is served by node:net'
  return undefined
}

/**
 * Starts a server. Rejects with an Error naming every bad option or route-table problem.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = async (options: NodeServerOptions = {}): Promise<ServerHandle> => {
  const transport: unknown = options.transport ?? 'net'
  if (transport !== 'net' && transport !== 'native') throw new Error(`runServer: invalid options\n  transport: expected 'native' or 'net', got ${JSON.stringify(transport)}`)
  const reuse: unknown = options.reusePort ?? false
  if (typeof reuse !== 'boolean') throw new Error(`runServer: invalid options\n  reusePort: expected a boolean, got ${JSON.stringify(reuse)}`)
  const netReuseWarning = reuse ? 'reusePort is served by the native transport only; node:net listens without SO_REUSEPORT' : undefined
  if (transport === 'net') return serveNet(options, nodePlatform, netReuseWarning)
  const refusal = nativeRefusal(options)
  const native = loadNativeBinding()
  if (refusal === undefined && native._tag === 'Right') return serveNative(options, native.right)
  const why = refusal ?? (native._tag === 'Left' ? native.left : '')
  return serveNet(options, nodePlatform, `transport 'native' unavailable (${why}); serving on node:net${reuse ? ' without SO_REUSEPORT' : ''}`)
}

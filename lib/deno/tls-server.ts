/**
 * Deno's TLS fallback: with `tls`, the Deno adapter serves through Deno's `node:net` and
 * `node:tls` (the shared server on `node:net`, lib/runtime/serve-net.ts, with the platform
 * over Node's API), not `Deno.listenTls`: a `Deno.TlsConn` cannot be closed before its
 * handshake is done (Deno finishes the handshake first), so a client that connects and
 * stalls would keep its socket for as long as it likes; `node:tls` closes it at the
 * handshake time-out, and can change its certificate (`setSecureContext`).
 * docs/decisions.md "TLS" has the details.
 *
 * Loaded by run-server.ts only when `tls` is given, so a plain Deno server never loads
 * `node:net` or `node:tls`. Imports the engine's types and the shared runtime layer
 * (lib/runtime/) only, never another adapter.
 */
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import { nodePlatform } from '../runtime/node-platform.js'
import { serveNet } from '../runtime/serve-net.js'

/**
 * Starts a TLS server on Deno's `node:net` and `node:tls`. Rejects with an Error naming
 * every bad option or route-table problem.
 *
 * @example
 * const server = await serveTls({ port: 0, tls: { key, cert }, routes })
 * await server.close()
 */
export const serveTls = (options: ServerOptions): Promise<ServerHandle> => serveNet(options, nodePlatform)

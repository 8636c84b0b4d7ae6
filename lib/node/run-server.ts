/**
 * `runServer` on Node (`twinport`): the adapter between `node:net` (and `node:tls` with the
 * `tls` option) and the portable engine (`lib/engine/`): the shared server on `node:net`
 * (lib/runtime/serve-net.ts) with Node's platform (lib/runtime/node-platform.ts). It holds
 * no protocol, room or time-out logic of its own.
 *
 * Imports the engine's types and the shared runtime layer (lib/runtime/) only, never
 * another adapter.
 */
import type { ServerHandle } from '../engine/server-handle.js'
import { nodePlatform } from '../runtime/node-platform.js'
import { type NetServerOptions, serveNet } from '../runtime/serve-net.js'

/**
 * Options of `runServer` on Node: the shared options, and two more ways to listen (`path`,
 * `handle`).
 */
export interface NodeServerOptions extends NetServerOptions {}

/**
 * Starts a server. Rejects with an Error naming every bad option or route-table problem.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = (options: NodeServerOptions = {}): Promise<ServerHandle> => serveNet(options, nodePlatform)

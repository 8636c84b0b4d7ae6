/**
 * `runServer` of the runtime the example runs in: `twinport/bun` on Bun, `twinport/deno`
 * on Deno, `twinport` (node:net) on Node. One app, three runtimes: the examples import
 * this instead of one adapter, so `npm run example:echo:bun` and `:deno` serve the same
 * routes with the same options.
 */
import type { ServerHandle, ServerOptions } from '../lib/index.js'

type RunServer = (options: ServerOptions) => Promise<ServerHandle>

const pick = async (): Promise<RunServer> => {
  if ('Bun' in globalThis) return (await import('../lib/bun/run-server.js')).runServer
  if ('Deno' in globalThis) return (await import('../lib/deno/run-server.js')).runServer
  return (await import('../lib/node/run-server.js')).runServer
}

export const runServer: RunServer = await pick()

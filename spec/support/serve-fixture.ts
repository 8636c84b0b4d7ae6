/**
 * The child side of the fixture servers: started by spec/support/fixture-server.ts in Bun
 * or Deno (`TWINPORT_TARGET`), it serves the integration specs' fixture apps with that
 * runtime's own adapter (`twinport/bun`, `twinport/deno`; Node's when started by Node),
 * reading requests on stdin and answering on stdout, one line each
 * (spec/support/fixture-wire.ts). It prints `{"ready":…}` first, and when stdin ends (the
 * spec's process is gone) it closes every server and exits.
 */
import process from 'node:process'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'
import { FIXTURES } from '../integration/fixtures/index.js'
import { fixtureHost } from './fixture-host.js'
import { encodeLine, lineSplitter } from './fixture-wire.js'

const runtime = 'Bun' in globalThis ? 'bun' : 'Deno' in globalThis ? 'deno' : 'node'

const runServer: (options: ServerOptions) => Promise<ServerHandle> =
  runtime === 'bun'
    ? (await import('../../lib/bun/run-server.js')).runServer
    : runtime === 'deno'
      ? (await import('../../lib/deno/run-server.js')).runServer
      : (await import('../../lib/node/run-server.js')).runServer

const host = fixtureHost({ runServer, modules: FIXTURES, send: (line) => void process.stdout.write(`${line}\n`) })

process.stdin.setEncoding('utf8')
process.stdin.on('data', lineSplitter((line) => host.receive(line)))
process.stdin.on('end', () => {
  void host.closeAll().finally(() => process.exit(0))
})
process.stdout.write(`${encodeLine({ ready: runtime })}\n`)

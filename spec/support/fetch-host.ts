/**
 * A real fetch host for the `toFetch` specs: run in Bun, it serves spec/support/fetch-app.ts
 * with `Bun.serve({ fetch: toFetch(app) })`; in Deno, with `Deno.serve(toFetch(app))`; on
 * 127.0.0.1 and a free port, which it prints as one JSON line `{"port":N}`. It stops (the app
 * closed, the server shut down, the process gone) when its standard input ends, so the spec
 * that started it stops it by closing its stdin. Run by spec/integration/to-fetch-hosts.spec.ts.
 */
import { silentLogger, toFetch } from '../../lib/fetch/index.js'
import { fetchApp, type Seen } from './fetch-app.js'

interface BunServer {
  readonly port: number
  stop(closeActive?: boolean): void
}
interface BunApi {
  serve(options: { hostname: string; port: number; fetch: (request: Request) => Response | Promise<Response> }): BunServer
  readonly stdin: { stream(): ReadableStream<Uint8Array> }
}
interface DenoServer {
  shutdown(): Promise<void>
}
interface DenoApi {
  serve(options: { hostname: string; port: number; onListen: (address: { port: number }) => void }, handler: (request: Request) => Response | Promise<Response>): DenoServer
  readonly stdin: { readonly readable: ReadableStream<Uint8Array> }
  exit(code: number): never
}

const runtime = globalThis as { Bun?: BunApi; Deno?: DenoApi }
const seen: Seen = []
// Quiet: the failures the spec provokes on purpose are logged, and the direct specs check the log.
const app = toFetch({ ...fetchApp(seen), logger: silentLogger })
const announce = (port: number): void => console.log(JSON.stringify({ port }))

const drain = async (input: ReadableStream<Uint8Array>): Promise<void> => {
  const reader = input.getReader()
  while (!(await reader.read()).done);
}

if (runtime.Bun !== undefined) {
  const bun = runtime.Bun
  const server = bun.serve({ hostname: '127.0.0.1', port: 0, fetch: app })
  announce(server.port)
  await drain(bun.stdin.stream())
  await app.close()
  server.stop(true)
  process.exit(0)
} else if (runtime.Deno !== undefined) {
  const deno = runtime.Deno
  const server = deno.serve({ hostname: '127.0.0.1', port: 0, onListen: ({ port }) => announce(port) }, app)
  await drain(deno.stdin.readable)
  await app.close()
  await server.shutdown()
  deno.exit(0)
} else {
  throw new Error('fetch-host: run it in Bun or Deno')
}

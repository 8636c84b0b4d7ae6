/**
 * One contender of `bench/embed-fetch.ts`: the same JSON route (`GET /hello` →
 * `{"hello":"world"}`) as a web-standard fetch handler, from twinport's `toFetch` (argv
 * `twinport`) or Hono's own router (argv `hono`, `app.get` + `c.json`), served by the host of
 * the runtime it runs in: `Bun.serve` under Bun, `Deno.serve` under Deno, `@hono/node-server`
 * under Node. Listens on 127.0.0.1 and a free port and prints `PORT <n>`. Bench code.
 */
import { Hono } from 'hono'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { silentLogger } from '../../lib/core/log/silent-logger.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'

type Handler = (request: Request) => Response | Promise<Response>

const which = process.argv[2] ?? (globalThis as { Deno?: { args: string[] } }).Deno?.args[0]
let handler: Handler
if (which === 'twinport') {
  handler = toFetch({ logger: silentLogger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
} else if (which === 'hono') {
  const app = new Hono()
  app.get('/hello', (c) => c.json({ hello: 'world' }))
  handler = (request) => app.fetch(request)
} else {
  throw new Error('usage: fetch-server.ts twinport|hono')
}

interface BunLike {
  serve(options: { port: number; hostname: string; fetch: Handler }): { port: number }
}
interface DenoLike {
  serve(options: { port: number; hostname: string; onListen(addr: { port: number }): void }, handler: Handler): unknown
}
const { Bun, Deno } = globalThis as { Bun?: BunLike; Deno?: DenoLike }
if (Bun !== undefined) {
  console.log(`PORT ${Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handler }).port}`)
} else if (Deno !== undefined) {
  Deno.serve({ port: 0, hostname: '127.0.0.1', onListen: ({ port }) => console.log(`PORT ${port}`) }, handler)
} else {
  const { serve } = await import('@hono/node-server')
  serve({ fetch: handler, port: 0, hostname: '127.0.0.1' }, (info) => console.log(`PORT ${info.port}`))
}

/**
 * One contender of `bench/embed-fetch.ts`: the same JSON route (`GET /hello` →
 * `{"hello":"world"}`) as a web-standard fetch handler, from twinport's `toFetch` (argv
 * `twinport`: its defaults, CORS for any origin; `twinport-nocors`: `cors: false`;
 * `twinport-record`: the defaults with the answer built as session 12 did, a record of headers) or Hono's
 * own router (argv `hono`, `app.get` + `c.json`; `hono-cors`: with `cors()` in front, the same
 * `Access-Control-Allow-Origin: *` answer as twinport's default; `hono-loaded`: bare Hono beside an
 * unused twinport app), `twinport-bare` (`cors: false, metrics: false`) or `bare` (no framework), served by the host of
 * the runtime it runs in: `Bun.serve` under Bun, `Deno.serve` under Deno, `@hono/node-server`
 * under Node. Listens on 127.0.0.1 and a free port and prints `PORT <n>`. Bench code.
 */
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { silentLogger } from '../../lib/core/log/silent-logger.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'

type Handler = (request: Request) => Response | Promise<Response>

const which = process.argv[2] ?? (globalThis as { Deno?: { args: string[] } }).Deno?.args[0]
let handler: Handler
const routes = [httpRoute('GET', '/hello', () => ({ hello: 'world' }))]
if (which === 'twinport' || which === 'twinport-nocors') {
  handler = toFetch({ logger: silentLogger, routes, ...(which === 'twinport-nocors' ? { cors: false as const } : {}) })
} else if (which === 'twinport-bare') {
  // Neither the CORS grant nor the metrics: twinport's dispatch alone (session 14).
  handler = toFetch({ logger: silentLogger, routes, cors: false, metrics: false })
} else if (which === 'bare') {
  // No framework: what the host costs with the least a handler can do (read the URL and method, answer).
  handler = (request) => (request.method === 'GET' && request.url.endsWith('/hello') ? new Response(JSON.stringify({ hello: 'world' }), { headers: { 'Content-Type': 'application/json' } }) : new Response(null, { status: 404 }))
} else if (which === 'twinport-record') {
  // Session 12's way on every host (the answer's headers as a record), for a before/after in one run.
  handler = toFetch({ logger: silentLogger, routes }, { responses: 'other' })
} else if (which === 'hono' || which === 'hono-cors' || which === 'hono-loaded') {
  // `hono-loaded`: bare Hono in a process that also made (and never calls) twinport's app, to tell
  // what twinport's dispatch costs from what its loaded code and heap cost the host (session 14).
  if (which === 'hono-loaded') (globalThis as { loaded?: unknown }).loaded = toFetch({ logger: silentLogger, routes })
  const app = new Hono()
  // twinport's default CORS (any origin) as Hono's middleware gives it: the same answer on the wire.
  if (which === 'hono-cors') app.use(cors())
  app.get('/hello', (c) => c.json({ hello: 'world' }))
  handler = (request) => app.fetch(request)
} else {
  throw new Error('usage: fetch-server.ts twinport|twinport-nocors|twinport-bare|twinport-record|hono|hono-cors|hono-loaded|bare')
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

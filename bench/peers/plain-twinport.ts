/**
 * Session 13's Bun per-request contender (bench/cpu-per-request.sh, beside bench/peers/plain-bun.ts): `GET /hello` as a plain `httpRoute`
 * answering text, and `serveStatic('/static', STATIC_ROOT)`, on whichever runtime runs it
 * (examples/run-anywhere.ts). HOST and PORT from the environment.
 */
import { runServer } from '../../examples/run-anywhere.js'
import { serveStatic } from '../../lib/core/files/serve-static.js'
import { httpRoute } from '../../lib/core/route/http-route.js'

const env = (name: string): string | undefined => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name]

await runServer({
  host: env('HOST') ?? '127.0.0.1',
  port: Number(env('PORT') ?? 6001),
  routes: [httpRoute('GET', '/hello', () => 'hello world'), ...serveStatic('/static', env('STATIC_ROOT') ?? '.')],
  cors: false,
})

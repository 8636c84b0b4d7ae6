/**
 * The static-files contender (bench/static-files.ts): `serveStatic('/static', STATIC_ROOT)` on
 * whichever runtime runs it (Node, Bun or Deno, through examples/run-anywhere.ts), with
 * `COMPRESS=1` adding the `compress` option. HOST and PORT from the environment.
 */
import { runServer } from '../../examples/run-anywhere.js'
import { serveStatic } from '../../lib/core/files/serve-static.js'

const env = (name: string): string | undefined => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name]

await runServer({
  host: env('HOST') ?? '127.0.0.1',
  port: Number(env('PORT') ?? 6001),
  routes: serveStatic('/static', env('STATIC_ROOT') ?? '.'),
  cors: false,
  ...(env('COMPRESS') === '1' ? { compress: true } : {}),
})

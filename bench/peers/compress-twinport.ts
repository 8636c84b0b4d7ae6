/**
 * twinport answering `GET /json` with bench/peers/compress-json.ts's 100 KiB document, the
 * `compress` option on at the same levels as the @fastify/compress peer (gzip 6, Brotli 4,
 * threshold 1 KiB, gzip and br only: Node 20 has no zstd). Runs on Node, Bun or Deno through
 * examples/run-anywhere.ts. HOST and PORT from the environment.
 */
import { runServer } from '../../examples/run-anywhere.js'
import { response } from '../../lib/core/http/response.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { BROTLI_QUALITY, GZIP_LEVEL, JSON_BYTES } from './compress-json.js'

const env = (name: string): string | undefined => (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name]

await runServer({
  host: env('HOST') ?? '127.0.0.1',
  port: Number(env('PORT') ?? 6001),
  routes: [httpRoute('GET', '/json', () => response(JSON_BYTES, 200, { 'Content-Type': 'application/json' }))],
  cors: false,
  compress: { codings: ['br', 'gzip'], gzipLevel: GZIP_LEVEL, brotliQuality: BROTLI_QUALITY, threshold: 1024 },
})

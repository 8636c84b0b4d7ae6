/**
 * Peer server for `bench/sse-broadcast.ts`: Hono's `streamSSE` on `@hono/node-server`.
 * `GET /events` keeps its stream in a set until the client goes; `POST /bcast` writes its
 * body's text to every stream (`writeSSE({ data })`, a plain loop: Hono has no rooms) and
 * answers 204. HOST/PORT from the environment. Imports hono and @hono/node-server only.
 */
import { serve } from '@hono/node-server'
import { Hono } from 'hono'
import { type SSEStreamingApi, streamSSE } from 'hono/streaming'

const streams = new Set<SSEStreamingApi>()
const app = new Hono()

app.get('/events', (c) =>
  streamSSE(c, async (stream) => {
    streams.add(stream)
    await new Promise<void>((resolve) => stream.onAbort(resolve))
    streams.delete(stream)
  }),
)

app.post('/bcast', async (c) => {
  const data = await c.req.text()
  for (const stream of streams) void stream.writeSSE({ data })
  return c.body(null, 204)
})

serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 6001), hostname: process.env['HOST'] ?? '0.0.0.0' })
process.once('SIGTERM', () => process.exit(0))

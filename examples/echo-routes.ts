/**
 * The echo app's routes and options (DESIGN §4), apart from any server so that other
 * examples can serve them (`examples/echo.ts` on one process, `examples/cluster.ts` on many):
 * - every WebSocket text or binary message is echoed back verbatim (up to 16 MiB);
 * - WebSocket clients on `/bcast` share one room: each message is sent to all of them
 *   (with the Redis adapter, on every process and host of the app);
 * - `GET /hello` answers `{"hello":"world"}`; `POST /echo` answers the body and its type;
 * - `GET /stream?chunks=N&size=S` streams N chunks of S bytes (`a`), one per turn of the event
 *   loop, its length not announced (chunked on HTTP/1.1);
 * - `POST /upload` reads a `multipart/form-data` body as it arrives (up to 2 GiB), hashes each
 *   file (SHA-256) as its bytes come and keeps nothing, and answers the fields and the files'
 *   names, sizes and hashes;
 * - `GET /static/...`: the files of `examples/public/` through `serveStatic`, compressed (gzip,
 *   br, zstd where the runtime has it) for a client that accepts it (DESIGN §8);
 * - `GET /events` is a Server-Sent Events client in the `/bcast` room: each message broadcast
 *   there reaches it as one event whose `data` is the message's text (binary messages have no
 *   event-stream form and skip it).
 */
import { createHash } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import { errorResponse, healthRoute, httpRoute, metricsRoute, serveStatic, sseRoute, json, onConnect, onMessage, readMultipart, response, routes, type ServerOptions, stream } from '../lib/index.js'

const BCAST = 'bcast'
const HELLO = json({ hello: 'world' })
const MAX_CHUNKS = 1_000_000
const MAX_CHUNK_SIZE = 16 * 1024 * 1024

// One turn of the event loop, on every runtime (setImmediate where there is one).
const nextTurn = (): Promise<void> =>
  new Promise((resolve) => ((globalThis as { setImmediate?: (run: () => void) => unknown }).setImmediate ?? setTimeout)(resolve))

// A whole number from a query value, within [0, max]; undefined otherwise.
const count = (value: unknown, max: number): number | undefined => {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : Number.NaN
  return Number.isInteger(n) && n <= max ? n : undefined
}

async function* chunksOf(chunks: number, size: number): AsyncGenerator<Uint8Array> {
  const chunk = new Uint8Array(size).fill(0x61)
  for (let i = 0; i < chunks; i++) {
    yield chunk
    await nextTurn()
  }
}

export const echoRoutes = routes({
  joinBroadcast: onConnect((ctx) => {
    if (ctx.request.path === '/bcast') ctx.joinRoom(BCAST)
  }),
  echo: onMessage((message, ctx) => {
    if (ctx.request.path !== '/bcast') return message
    ctx.broadcastRaw(message, { room: BCAST })
    return undefined
  }),
  // A Server-Sent Events client of the `/bcast` room (it joins it before its connect handlers run).
  events: sseRoute('/events', { rooms: [BCAST] }),
  // A response is an immutable value: built once, served as often as asked.
  hello: httpRoute('GET', '/hello', () => HELLO),
  echoBody: httpRoute('POST', '/echo', (req) =>
    response(req.rawBody, 200, { 'Content-Type': req.headerMap.get('content-type') ?? 'application/octet-stream' }),
  ),
  upload: httpRoute('POST', '/upload', { body: 'stream', maxBody: 2 * 1024 ** 3 }, async (req) => {
    const fields: Record<string, string> = {}
    const files: { field: string; filename: string; size: number; sha256: string }[] = []
    for await (const part of readMultipart(req)) {
      if (part.kind === 'field') {
        fields[part.name] = part.value
        continue
      }
      const hash = createHash('sha256')
      let size = 0
      for await (const chunk of part.data) {
        hash.update(chunk)
        size += chunk.length
      }
      files.push({ field: part.name, filename: part.filename, size, sha256: hash.digest('hex') })
    }
    return { fields, files }
  }),
  streamed: httpRoute('GET', '/stream', (req) => {
    const chunks = count(req.query.chunks ?? '1', MAX_CHUNKS)
    const size = count(req.query.size ?? '1024', MAX_CHUNK_SIZE)
    if (chunks === undefined || size === undefined) return errorResponse(400, `expected chunks in 0..${MAX_CHUNKS} and size in 0..${MAX_CHUNK_SIZE}`)
    return stream(chunksOf(chunks, size), { contentType: 'application/octet-stream' })
  }),
  // Operations (DESIGN §8): Prometheus text at /metrics, liveness and readiness at /health.
  metrics: metricsRoute('/metrics'),
}, healthRoute({ path: '/health' }), serveStatic('/static', fileURLToPath(new URL('./public', import.meta.url))))

/** The echo server's options besides host, port and routes. */
export const echoOptions = {
  limits: { maxFramePayload: 16 * 1024 * 1024, maxMessage: 16 * 1024 * 1024, maxBody: 16 * 1024 * 1024 },
  // A conformance and benchmark target, not a browser API: no CORS headers, like its peers.
  cors: false,
  // HTTP compression for the static files only: `/hello` and `/echo`, the benchmarked paths,
  // pay one prefix check.
  compress: { paths: ['/static/'] },
} as const satisfies ServerOptions

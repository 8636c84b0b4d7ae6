/**
 * The app the `toFetch` specs serve (spec/fetch/ calls it directly; spec/support/fetch-host.ts
 * serves it under `Bun.serve` and `Deno.serve`): buffered and streamed bodies both ways, a
 * route's own `maxBody`, middleware, CORS, a throwing handler, a source that fails, one that
 * never ends (its cancellation recorded), a handler waiting on `req.signal`, and event streams
 * in a room (`GET`/`POST /events`, `POST /shout` broadcasting to it, `GET /members` counting them). What the
 * handlers saw is kept in `seen`, also served at `GET /seen`. Portable: the core only.
 */
import { errorResponse, httpRoute, type HttpMiddleware, response, routes, socketOn, ssePostRoute, sseRoute, stream } from '../../lib/core/index.js'
import type { FetchOptions } from '../../lib/fetch/to-fetch.js'

/** What the app's handlers saw, in order. */
export type Seen = string[]

async function* pieces(texts: readonly string[]): AsyncGenerator<string> {
  yield* texts
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

/** The options of the app; `seen` collects what its handlers saw. */
export const fetchApp = (seen: Seen): FetchOptions => {
  const tag: HttpMiddleware = async (request, next) => {
    const answer = await next(request)
    return { ...answer, headers: [...answer.headers, ['X-Middleware', request.method]] }
  }
  async function* forever(): AsyncGenerator<Uint8Array> {
    const piece = new Uint8Array(16 * 1024).fill(0x62)
    try {
      for (;;) {
        yield piece
        await nextTurn()
      }
    } finally {
      seen.push('forever: cancelled')
    }
  }
  async function* chunks(n: number, size: number): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < n; i++) {
      yield new Uint8Array(size).fill(0x61)
      await nextTurn()
    }
  }
  async function* failing(): AsyncGenerator<string> {
    yield 'first piece'
    await nextTurn()
    throw new Error('the source broke')
  }
  return {
    limits: { maxBody: 1000 },
    httpMiddleware: [tag],
    cors: { allowedOrigins: ['https://app.test'] },
    routes: routes({
      hello: httpRoute('GET', '/hello', () => ({ hello: 'world' })),
      user: httpRoute('GET', '/users/{id}', (req) => ({ id: req.params.id, full: req.query.full ?? null })),
      echo: httpRoute('POST', '/echo', (req) => response(req.rawBody, 200, { 'Content-Type': req.headerMap.get('content-type') ?? 'application/octet-stream' })),
      small: httpRoute('POST', '/small', { maxBody: 10 }, (req) => ({ size: req.rawBody.length })),
      upload: httpRoute('POST', '/upload', { body: 'stream', maxBody: 100_000 }, async (req) => {
        let size = 0
        let pieces = 0
        for await (const piece of req.body) {
          size += piece.length
          pieces += 1
        }
        return { size, pieces: pieces > 0 }
      }),
      streamed: httpRoute('GET', '/stream', (req) => stream(chunks(Number(req.query.chunks ?? '3'), Number(req.query.size ?? '4')), { contentType: 'text/plain' })),
      sized: httpRoute('GET', '/sized', () => stream(pieces(['aaaa', 'aaaaaa']), { length: 10, contentType: 'text/plain' })),
      short: httpRoute('GET', '/short', () => stream(pieces(['aaaa']), { length: 10 })),
      rs: httpRoute('GET', '/rs', () => stream(new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(new TextEncoder().encode('from a stream')), c.close()) }))),
      forever: httpRoute('GET', '/forever', () => stream(forever())),
      failing: httpRoute('GET', '/failing', () => stream(failing())),
      boom: httpRoute('GET', '/boom', () => {
        throw new Error('the handler broke')
      }),
      teapot: httpRoute('GET', '/teapot', () => errorResponse(418, 'short and stout')),
      empty: httpRoute('GET', '/empty', () => response(undefined, 204)),
      waiting: httpRoute('GET', '/waiting', (req) =>
        new Promise((resolve) => {
          seen.push('waiting: started')
          req.signal.addEventListener('abort', () => {
            seen.push('waiting: aborted')
            resolve(errorResponse(499, 'gone'))
          })
        }),
      ),
      seen: httpRoute('GET', '/seen', () => ({ seen })),
      // Event streams: clients of the registry in room `r`, what they post dispatched as WebSocket messages are.
      events: sseRoute('/events', { rooms: ['r'] }),
      posts: ssePostRoute('/events'),
      double: socketOn('double', (n) => (n as number) * 2),
      say: socketOn('say', (data, ctx) => void ctx.broadcast('said', data, { room: 'r' })),
      members: httpRoute('GET', '/members', (_req, ctx) => ({ members: ctx.clients().length })),
      shout: httpRoute('POST', '/shout', (req, ctx) => {
        ctx.broadcast('said', new TextDecoder().decode(req.rawBody), { room: 'r' })
        return { ok: true }
      }),
    }),
  }
}

/**
 * `toFetch` called directly with web `Request`s, as a host would call it (no server): the
 * same routing, middleware, CORS, limits and error answers as `runServer`; buffered and
 * streamed bodies both ways; cancellation of a streamed answer when its consumer cancels;
 * `req.signal` following `request.signal`; `fallback`; 501 for a WebSocket upgrade no route answers; 503
 * after `close`; no timer started by creating the handler or answering a plain request. Event
 * streams (clients of the registry on the Response's body) are to-fetch-sse.spec.ts's.
 * Portable: runs in Node, Bun and Deno (spec/fetch is one of the portable folders).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type LogEntry, makeLogger } from '../../lib/core/index.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'
import { fetchApp, type Seen } from '../support/fetch-app.js'

const URL = 'http://app.test'

const appWith = (seen: Seen = [], records: LogEntry[] = []) => toFetch({ ...fetchApp(seen), logger: makeLogger((entry) => void records.push(entry)) })

const eventually = async (check: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  assert.unreachable(`never: ${what}`)
}

// A body of `size` bytes in pieces of 1000, with no length announced.
const piecesOfSize = (size: number): ReadableStream<Uint8Array> => {
  let left = size
  return new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (left === 0) return controller.close()
      const n = Math.min(1000, left)
      left -= n
      controller.enqueue(new Uint8Array(n).fill(0x63))
    },
  })
}

const post = (path: string, body: BodyInit): Request => new Request(`${URL}${path}`, { method: 'POST', body, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit)

test('toFetch :: routes, parameters and query, middleware, 404, 405 with Allow, HEAD', async () => {
  const app = appWith()
  const hello = await app(new Request(`${URL}/hello`))
  assert.is(hello.status, 200)
  assert.is(hello.headers.get('content-type'), 'application/json')
  assert.is(hello.headers.get('x-middleware'), 'GET')
  assert.equal(await hello.json(), { hello: 'world' })
  assert.equal(await (await app(new Request(`${URL}/users/a%20b?full=1`))).json(), { id: 'a b', full: '1' })
  const missing = await app(new Request(`${URL}/nope`))
  assert.is(missing.status, 404)
  assert.equal(await missing.json(), { error: 'not_found' })
  const wrong = await app(new Request(`${URL}/hello`, { method: 'DELETE' }))
  assert.is(wrong.status, 405)
  assert.is(wrong.headers.get('allow'), 'GET, HEAD')
  const head = await app(new Request(`${URL}/hello`, { method: 'HEAD' }))
  assert.is(head.status, 200)
  assert.is(head.headers.get('content-length'), '17')
  assert.is(await head.text(), '')
  const teapot = await app(new Request(`${URL}/teapot`))
  assert.is(teapot.status, 418)
  assert.equal(await teapot.json(), { error: 'short and stout' })
  const empty = await app(new Request(`${URL}/empty`))
  assert.is(empty.status, 204)
  assert.is(empty.body, null)
  await app.close()
})

test('toFetch :: CORS: the allowed origin, the preflight, another origin', async () => {
  const app = appWith()
  const allowed = await app(new Request(`${URL}/hello`, { headers: { origin: 'https://app.test' } }))
  assert.is(allowed.headers.get('access-control-allow-origin'), 'https://app.test')
  const preflight = await app(new Request(`${URL}/echo`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'POST' } }))
  assert.is(preflight.status, 204)
  assert.match(preflight.headers.get('access-control-allow-methods') ?? '', /POST/)
  const other = await app(new Request(`${URL}/hello`, { headers: { origin: 'https://elsewhere.test' } }))
  assert.is(other.headers.get('access-control-allow-origin'), null)
  await app.close()
})

test('toFetch :: buffered bodies: read whole, 413 past limits.maxBody and past a route maxBody, by length or as they come', async () => {
  const app = appWith()
  const echoed = await app(post('/echo', new Blob(['hello there'], { type: 'text/x-greeting' })))
  assert.is(echoed.status, 200)
  assert.is(echoed.headers.get('content-type'), 'text/x-greeting')
  assert.is(await echoed.text(), 'hello there')
  assert.is((await app(post('/echo', 'x'.repeat(1000)))).status, 200)
  const large = await app(post('/echo', 'x'.repeat(1001)))
  assert.is(large.status, 413)
  assert.equal(await large.json(), { error: 'body_too_large' })
  assert.is((await app(post('/echo', piecesOfSize(1001)))).status, 413, 'no length announced')
  assert.equal(await (await app(post('/small', '0123456789'))).json(), { size: 10 })
  assert.is((await app(post('/small', '0123456789a'))).status, 413)
  await app.close()
})

test('toFetch :: a route declared { body: "stream" } reads request.body as it comes, 413 past its maxBody', async () => {
  const app = appWith()
  assert.equal(await (await app(post('/upload', piecesOfSize(50_000)))).json(), { size: 50_000, pieces: true })
  assert.equal(await (await app(new Request(`${URL}/upload`, { method: 'POST' }))).json(), { size: 0, pieces: false })
  const large = await app(post('/upload', piecesOfSize(100_001)))
  assert.is(large.status, 413)
  assert.is((await app(post('/upload', new Uint8Array(100_001)))).status, 413, 'refused by its length')
  await app.close()
})

test('toFetch :: a stream(...) answer is the Response body: unsized, sized, a ReadableStream source', async () => {
  const app = appWith()
  const unsized = await app(new Request(`${URL}/stream?chunks=3&size=4`))
  assert.is(unsized.headers.get('content-length'), null)
  assert.is(unsized.headers.get('content-type'), 'text/plain')
  assert.is(await unsized.text(), 'a'.repeat(12))
  assert.is((await (await app(new Request(`${URL}/stream?chunks=200&size=1000`))).arrayBuffer()).byteLength, 200_000)
  const sized = await app(new Request(`${URL}/sized`))
  assert.is(sized.headers.get('content-length'), '10')
  assert.is(await sized.text(), 'a'.repeat(10))
  assert.is(await (await app(new Request(`${URL}/rs`))).text(), 'from a stream')
  const head = await app(new Request(`${URL}/stream`, { method: 'HEAD' }))
  assert.is(head.body, null)
  await app.close()
})

test('toFetch :: a source that fails, or gives less than it announced, errors the body and is logged', async () => {
  const records: LogEntry[] = []
  const app = appWith([], records)
  const failing = await app(new Request(`${URL}/failing`))
  assert.is(failing.status, 200)
  await failing.text().then(
    () => assert.unreachable('the body ended as if whole'),
    () => undefined,
  )
  assert.ok(records.some((r) => r.message === 'the source broke'))
  const short = await app(new Request(`${URL}/short`))
  await short.text().then(
    () => assert.unreachable('a short body ended as if whole'),
    () => undefined,
  )
  await app.close()
})

test('toFetch :: cancelling the Response body cancels the source', async () => {
  const seen: Seen = []
  const app = appWith(seen)
  const res = await app(new Request(`${URL}/forever`))
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  assert.ok(((await reader.read()).value?.length ?? 0) > 0)
  await reader.cancel()
  await eventually(() => seen.includes('forever: cancelled'), 'the source was cancelled')
  await app.close()
})

test('toFetch :: req.signal follows request.signal', async () => {
  const seen: Seen = []
  const app = appWith(seen)
  const controller = new AbortController()
  const answer = app(new Request(`${URL}/waiting`, { signal: controller.signal }))
  await eventually(() => seen.includes('waiting: started'), 'the handler started')
  controller.abort()
  assert.is((await answer).status, 499)
  assert.ok(seen.includes('waiting: aborted'))
  await app.close()
})

test('toFetch :: a throwing handler is a logged 500, and the handler keeps answering', async () => {
  const records: LogEntry[] = []
  const app = appWith([], records)
  const boom = await app(new Request(`${URL}/boom`))
  assert.is(boom.status, 500)
  assert.equal(await boom.json(), { error: 'internal_error' })
  assert.ok(records.some((r) => r.level === 'error' && r.message === 'the handler broke'))
  assert.is((await app(new Request(`${URL}/hello`))).status, 200)
  await app.close()
})

const UPGRADE = { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' }

test('toFetch :: fallback answers what the table does not, a WebSocket upgrade among it too; after close, 503', async () => {
  const app = toFetch({ ...fetchApp([]), fallback: (request) => new Response(`the rest: ${new globalThis.URL(request.url).pathname}`) })
  assert.is(await (await app(new Request(`${URL}/elsewhere`))).text(), 'the rest: /elsewhere')
  assert.equal(await (await app(new Request(`${URL}/hello`))).json(), { hello: 'world' })
  // The host app may serve WebSockets itself (a Hono app's upgradeWebSocket): its upgrades are its own.
  assert.is(await (await app(new Request(`${URL}/ws`, { headers: UPGRADE }))).text(), 'the rest: /ws')
  await app.close()
  assert.is((await app(new Request(`${URL}/hello`))).status, 503)
})

test('toFetch :: a WebSocket upgrade no route answers gets 501 websocket_not_served; a routed one is answered by its route (RFC 9110 §7.8)', async () => {
  const app = appWith()
  try {
    const unrouted = await app(new Request(`${URL}/ws`, { headers: UPGRADE }))
    assert.is(unrouted.status, 501)
    assert.equal(await unrouted.json(), { error: 'websocket_not_served' })
    // Not a route's method either: no route answers it.
    const wrongMethod = await app(new Request(`${URL}/hello`, { method: 'DELETE', headers: UPGRADE }))
    assert.is(wrongMethod.status, 501)
    // `Upgrade` naming another protocol is no WebSocket upgrade: the table's 404.
    assert.is((await app(new Request(`${URL}/ws`, { headers: { upgrade: 'h2c', connection: 'Upgrade' } }))).status, 404)
    const routed = await app(new Request(`${URL}/hello`, { headers: UPGRADE }))
    assert.is(routed.status, 200)
    assert.equal(await routed.json(), { hello: 'world' })
    const head = await app(new Request(`${URL}/hello`, { method: 'HEAD', headers: UPGRADE }))
    assert.is(head.status, 200)
  } finally {
    await app.close()
  }
})

test('toFetch :: bad options throw at once, naming them', () => {
  assert.throws(() => toFetch({ limits: { maxBody: -1 } }), /invalid options/)
  assert.throws(() => toFetch({ fallback: 'no' as never }), /fallback/)
})

test('toFetch :: no timer is started by creating the handler, nor by a plain request', async () => {
  const g = globalThis as { setTimeout: typeof setTimeout; setInterval: typeof setInterval }
  const { setTimeout: realTimeout, setInterval: realInterval } = g
  let started = 0
  g.setTimeout = ((...args: Parameters<typeof setTimeout>) => (started++, realTimeout(...args))) as typeof setTimeout
  g.setInterval = ((...args: Parameters<typeof setInterval>) => (started++, realInterval(...args))) as typeof setInterval
  try {
    const app = toFetch({ routes: [] })
    assert.is((await app(new Request(`${URL}/nothing`))).status, 404)
    assert.is(started, 0)
  } finally {
    g.setTimeout = realTimeout
    g.setInterval = realInterval
  }
})

test.run()

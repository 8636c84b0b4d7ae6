/**
 * `attach(server, options)`: twinport beside a real app on the same port (issue 24): a plain
 * `node:http` server, an Express 5 app, a Fastify 5 app, and an `https` server. Each app keeps
 * its own routes; twinport's routes (with their middleware, CORS, body limits and error
 * answers) and its WebSocket answer beside them; upgrades it does not take stay with the
 * server's other `upgrade` listeners; `close()` closes twinport's clients and leaves the server
 * serving. Node only (attach is the Node adapter's).
 */
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http'
import { createServer as createHttpsServer, request as httpsRequest } from 'node:https'
import type { AddressInfo } from 'node:net'
import express from 'express'
import Fastify from 'fastify'
import * as zlib from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { WebSocketServer } from 'ws'
import { json, text } from '../../lib/core/http/response.js'
import { withHeader } from '../../lib/core/http/response-updates.js'
import { stream } from '../../lib/core/http/stream-response.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import type { HttpMiddleware } from '../../lib/core/route/http-middleware.js'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { sseRoute } from '../../lib/core/route/sse-route.js'
import { attach, type AttachOptions } from '../../lib/node/attach.js'
import { adminRoutes } from '../../lib/admin/admin-routes.js'
import { parseQuery } from '../../lib/core/http/parse-query.js'
import { makeTestCa } from '../support/test-certificates.js'
import { eventually, memoryLogger, openClient, rawExchange, statusOf } from '../support/server.js'
import { openSse } from '../support/sse-client.js'
import { onDisconnect } from '../../lib/core/route/on-disconnect.js'
import { ssePostRoute } from '../../lib/core/route/sse-route.js'

const routes = [
  sseRoute('/live'),
  httpRoute('GET', '/hello', () => ({ hello: 'world' })),
  httpRoute('POST', '/echo', (req) => text(new TextDecoder().decode(req.rawBody))),
  httpRoute('GET', '/boom', () => {
    throw new Error('boom')
  }),
  httpRoute('GET', '/cycle', () => {
    const a: Record<string, unknown> = {}
    a['a'] = a
    return json(a as never)
  }),
  httpRoute('GET', '/ticks', () => stream((async function* () { yield 'a'; yield 'b'; yield 'c' })(), { contentType: 'text/plain' })),
  httpRoute('GET', '/sized', () => stream((async function* () { yield 'abc' })(), { length: 3 })),
  httpRoute('POST', '/count', { body: 'stream', maxBody: 1000 }, async (req) => {
    let size = 0
    for await (const piece of req.body) size += piece.length
    return { size }
  }),
  httpRoute('GET', '/items/{id}', (req) => ({ id: req.params.id })),
  httpRoute('POST', '/inflate', { body: 'stream', decompress: true, maxBody: 100_000 }, async (req) => ({ size: (await req.body.bytes()).length })),
  onConnect((ctx) => ctx.joinRoom('all')),
  socketOn('echo', (data) => data),
]

// Every answer of twinport's dispatch carries this header: the route table's middleware ran.
const zlibHasZstd = typeof (zlib as unknown as { createZstdDecompress?: unknown }).createZstdDecompress === 'function'

const tagged: HttpMiddleware = async (req, next) => withHeader(await next(req), 'X-Twinport', 'yes')

const options = (more: Partial<AttachOptions> = {}): AttachOptions => ({
  routes,
  httpMiddleware: [tagged],
  cors: { allowedOrigins: ['https://app.example'] },
  limits: { maxBody: 64 },
  logger: memoryLogger().logger,
  http: true,
  ...more,
})

const listen = async (server: Server): Promise<number> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as AddressInfo).port
}

const closeServer = (server: Server): Promise<void> =>
  new Promise((resolve) => {
    server.closeAllConnections()
    server.close(() => resolve())
  })

const get = async (url: string, init?: RequestInit): Promise<{ status: number; body: string; type: string | null; tag: string | null }> => {
  const res = await fetch(url, init).catch((error: unknown) => {
    throw new Error(`${init?.method ?? 'GET'} ${url}: ${String((error as { cause?: unknown }).cause ?? error)}`)
  })
  return { status: res.status, body: await res.text(), type: res.headers.get('content-type'), tag: res.headers.get('x-twinport') }
}

// What every app must show: its own route, twinport's routes and WebSocket, on one port.
const sharesThePort = async (port: number, own: string, ownBody: string): Promise<void> => {
  const base = `http://127.0.0.1:${port}`
  const mine = await get(`${base}${own}`)
  assert.is(mine.status, 200)
  assert.is(mine.body, ownBody)
  assert.is(mine.tag, null, "the app's own answer did not go through twinport")
  const hello = await get(`${base}/hello`)
  assert.equal({ status: hello.status, body: hello.body, tag: hello.tag }, { status: 200, body: '{"hello":"world"}', tag: 'yes' })
  const client = await openClient(port, '/')
  client.emit('echo', { n: 1 }, 7)
  assert.equal(await client.nextJson(), { event: 'ack', id: 7, data: { n: 1 } })
  client.ws.close()
  await client.closed()
}

const Attach = suite('attach :: beside an existing server')

Attach('a plain node:http server: its own routes, twinport routes and WebSocket on the same port', async () => {
  const server = createHttpServer((req, res) => {
    if (req.url === '/own') return void res.end('own')
    res.statusCode = 404
    res.end('host 404')
  })
  const port = await listen(server)
  const twin = attach(server, options())
  try {
    await sharesThePort(port, '/own', 'own')
    // What twinport has no route for is the host's.
    assert.equal(await get(`http://127.0.0.1:${port}/nothing`).then((r) => [r.status, r.body]), [404, 'host 404'])
    assert.equal(await get(`http://127.0.0.1:${port}/hello`, { method: 'DELETE' }).then((r) => [r.status, r.body]), [404, 'host 404'])
  } finally {
    await twin.close()
    await closeServer(server)
  }
})

Attach('the same answers as runServer: body limits, errors, CORS, streamed bodies both ways, params', async () => {
  const { logger, records } = memoryLogger()
  const server = createHttpServer((_req, res) => res.end('host'))
  const port = await listen(server)
  const twin = attach(server, options({ logger }))
  const base = `http://127.0.0.1:${port}`
  try {
    assert.equal(await get(`${base}/echo`, { method: 'POST', body: 'hi there' }).then((r) => [r.status, r.body]), [200, 'hi there'])
    const big = await get(`${base}/echo`, { method: 'POST', body: 'x'.repeat(65) })
    assert.equal([big.status, big.body], [413, '{"error":"body_too_large","message":"the body is larger than the 64 bytes this route takes"}'])
    const chunked = await get(`${base}/echo`, { method: 'POST', body: new Blob(['x'.repeat(40), 'y'.repeat(40)]).stream(), duplex: 'half' } as RequestInit)
    assert.is(chunked.status, 413, 'a chunked body past the limit')
    assert.equal(await get(`${base}/boom`).then((r) => [r.status, r.body, r.tag]), [500, '{"error":"internal_error"}', 'yes'])
    assert.ok(records.some((r) => r.level === 'error' && String(r.context['path']) === '/boom'), 'the handler error is logged')
    assert.equal(await get(`${base}/cycle`).then((r) => [r.status, r.body]), [500, '{"error":"unserializable_body"}'])
    assert.equal(await get(`${base}/ticks`).then((r) => [r.status, r.body, r.type]), [200, 'abc', 'text/plain'])
    const sized = await fetch(`${base}/sized`)
    assert.equal([sized.headers.get('content-length'), await sized.text()], ['3', 'abc'])
    const head = await fetch(`${base}/ticks`, { method: 'HEAD' })
    assert.equal([head.status, await head.text()], [200, ''])
    assert.equal(await get(`${base}/count`, { method: 'POST', body: 'z'.repeat(900) }).then((r) => [r.status, r.body]), [200, '{"size":900}'])
    assert.equal(await get(`${base}/count`, { method: 'POST', body: 'z'.repeat(1001) }).then((r) => [r.status, r.body]), [413, '{"error":"body_too_large","message":"the body is larger than the 1000 bytes this route takes"}'])
    assert.equal(await get(`${base}/items/a%20b?x=1`).then((r) => r.body), '{"id":"a b"}')
    const preflight = await fetch(`${base}/hello`, { method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'GET' } })
    assert.is(preflight.status, 204)
    assert.is(preflight.headers.get('access-control-allow-origin'), 'https://app.example')
    const cors = await fetch(`${base}/hello`, { headers: { Origin: 'https://app.example' } })
    assert.is(cors.headers.get('access-control-allow-origin'), 'https://app.example')
    const allow = await fetch(`${base}/echo`, { method: 'OPTIONS' })
    assert.equal([allow.status, allow.headers.get('allow')], [405, 'POST'])
    // An event stream is held (its own suite below): its head, at once.
    const live = await openSse(port, '/live')
    assert.equal([live.status, live.headers['content-type']], [200, 'text/event-stream; charset=utf-8'])
    live.close()
  } finally {
    await twin.close()
    await closeServer(server)
  }
})

Attach('upgrades: twinport takes its paths, another upgrade listener keeps the rest, none left: 404', async () => {
  const server = createHttpServer()
  const port = await listen(server)
  const twin = attach(server, options({ paths: ['/tp'] }))
  const other = new WebSocketServer({ noServer: true })
  const onOther = (req: IncomingMessage, socket: import('node:stream').Duplex, head: Buffer): void => {
    if (req.url === '/hmr') other.handleUpgrade(req, socket, head, (ws) => ws.send('hmr here'))
  }
  server.on('upgrade', onOther)
  try {
    const tp = await openClient(port, '/tp?x=1')
    tp.emit('echo', 'hi', 1)
    assert.equal(await tp.nextJson(), { event: 'ack', id: 1, data: 'hi' })
    const hmr = await openClient(port, '/hmr')
    assert.is(await hmr.next(), 'hmr here')
    hmr.ws.close()
    server.off('upgrade', onOther)
    const refused = await rawExchange(port, 'GET /elsewhere HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
    assert.is(statusOf(refused), 404)
    // A full client: the handle reaches it, in its room.
    assert.is(twin.broadcast('news', 1, { room: 'all' }), 1)
    assert.equal(await tp.nextJson(), { event: 'news', data: 1 })
    // Closing the app closes its clients (1001), not the server.
    await twin.close()
    assert.is((await tp.closed()).code, 1001)
    assert.ok(server.listening)
    other.close()
  } finally {
    await twin.close()
    await closeServer(server)
  }
})

Attach('the admin page attached: its WebSocket refused at the upgrade (401/403, no 101), admitted with the token', async () => {
  const server = createHttpServer((_req, res) => res.end('host'))
  const port = await listen(server)
  const admin = adminRoutes({ authorize: (req) => parseQuery(req.rawQuery)['token'] === 'let-me-in' })
  const twin = attach(server, options({ routes: [admin, ...routes], paths: ['/admin/ws', '/'] }))
  const upgrade = (target: string): string =>
    `GET ${target} HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`
  try {
    assert.is((await get(`http://127.0.0.1:${port}/admin?token=nope`)).status, 403)
    const refused = await rawExchange(port, upgrade('/admin/ws?token=nope'))
    assert.is(statusOf(refused), 403, refused)
    assert.not.ok(refused.includes(' 101 '), refused)
    const admitted = await openClient(port, '/admin/ws?token=let-me-in')
    try {
      admitted.emit('tp:admin', undefined, 1)
      const answer = (await admitted.nextJson()) as { data?: { nodes?: unknown[] } }
      assert.ok(Array.isArray(answer.data?.nodes), JSON.stringify(answer))
    } finally {
      admitted.ws.close()
      await admitted.closed()
    }
  } finally {
    await twin.close()
    await closeServer(server)
  }
})

Attach('an Express 5 app: attached with http: true, and by hand as a middleware', async () => {
  const app = express()
  app.get('/legacy', (_req, res) => void res.type('text/plain').send('legacy'))
  const server = app.listen(0, '127.0.0.1')
  await new Promise<void>((resolve) => server.once('listening', resolve))
  const port = (server.address() as AddressInfo).port
  let twin = attach(server, options())
  try {
    await sharesThePort(port, '/legacy', 'legacy')
    assert.is((await get(`http://127.0.0.1:${port}/nothing`)).status, 404)
    await twin.close()
    // Detached: the app's own listener is back, twinport's routes are the app's 404s.
    assert.is((await get(`http://127.0.0.1:${port}/hello`)).tag, null)
    assert.is((await get(`http://127.0.0.1:${port}/legacy`)).body, 'legacy')
    // By hand: a middleware ahead of the app's routes.
    const wired = express()
    twin = attach(server, options({ http: false }))
    wired.use((req, res, next) => void twin.handleRequest(req, res, next))
    wired.get('/legacy', (_req, res) => void res.send('wired legacy'))
    server.removeAllListeners('request')
    server.on('request', wired)
    assert.equal(await get(`http://127.0.0.1:${port}/hello`).then((r) => [r.body, r.tag]), ['{"hello":"world"}', 'yes'])
    assert.is((await get(`http://127.0.0.1:${port}/legacy`)).body, 'wired legacy')
  } finally {
    await twin.close()
    await closeServer(server)
  }
})

Attach('a Fastify 5 app: its routes, twinport routes and WebSocket on its port', async () => {
  const fastify = Fastify()
  fastify.get('/own', async () => 'fastify own')
  await fastify.listen({ port: 0, host: '127.0.0.1' })
  const port = (fastify.server.address() as AddressInfo).port
  const twin = attach(fastify.server, options())
  try {
    await sharesThePort(port, '/own', 'fastify own')
    assert.is((await get(`http://127.0.0.1:${port}/nothing`)).status, 404)
  } finally {
    await twin.close()
    await fastify.close()
  }
})

Attach('an https server: the app, twinport routes and wss on one TLS port', async () => {
  const authority = makeTestCa()
  const { key, cert } = authority.issue('attach')
  const server = createHttpsServer({ key, cert }, (_req, res) => res.end('secure own'))
  const port = await listen(server as unknown as Server)
  const twin = attach(server, options({ paths: ['/'] }))
  const getSecure = (path: string): Promise<{ status: number; body: string }> =>
    new Promise((resolve, reject) => {
      const req = httpsRequest({ host: '127.0.0.1', port, path, ca: authority.ca }, (res) => {
        let body = ''
        res.on('data', (chunk: Buffer) => (body += chunk.toString()))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
      })
      req.on('error', reject)
      req.end()
    })
  try {
    assert.equal(await getSecure('/own'), { status: 200, body: 'secure own' })
    assert.equal(await getSecure('/hello'), { status: 200, body: '{"hello":"world"}' })
    const client = await openClient(port, '/', { ca: authority.ca }, 'wss')
    client.emit('echo', 'over tls', 3)
    assert.equal(await client.nextJson(), { event: 'ack', id: 3, data: 'over tls' })
    client.ws.close()
    await client.closed()
  } finally {
    await twin.close()
    await closeServer(server as unknown as Server)
    authority.remove()
  }
})

Attach('handleUpgrade by hand, with a paths function; bad options are a clear error', async () => {
  const server = createHttpServer()
  const port = await listen(server)
  const twin = attach(server, options({ paths: (path) => path.startsWith('/live') }))
  server.removeAllListeners('upgrade')
  server.on('upgrade', (req, socket, head) => {
    if (!twin.handleUpgrade(req, socket, head)) socket.destroy()
  })
  try {
    const live = await openClient(port, '/live/1')
    live.emit('echo', 2, 2)
    assert.equal(await live.nextJson(), { event: 'ack', id: 2, data: 2 })
    const refused = await openClient(port, '/dead').then(() => 'opened', (error: unknown) => String(error))
    assert.match(refused, /socket hang up/)
    assert.throws(() => attach(server, { paths: ['no-slash'] }), /attach: invalid options\n {2}paths/)
    assert.throws(() => attach(server, { cors: { allowedOrigins: 3 } as never }), /invalid option cors/)
  } finally {
    await twin.close()
    await closeServer(server)
  }
})

Attach('request decompression: gzip and br bodies decoded, a bomb 413, corrupt 400, unknown 415', async () => {
  const server = createHttpServer()
  const attached = await attach(server, options())
  const port = await listen(server)
  const url = `http://127.0.0.1:${port}/inflate`
  try {
    const body = Buffer.from('attach '.repeat(10_000))
    for (const [coding, encoded] of [['gzip', zlib.gzipSync(body)], ['br', zlib.brotliCompressSync(body)]] as const) {
      const res = await fetch(url, { method: 'POST', headers: { 'Content-Encoding': coding }, body: encoded })
      assert.equal([res.status, await res.json()], [200, { size: body.length }], coding)
    }
    const bomb = await fetch(url, { method: 'POST', headers: { 'Content-Encoding': 'gzip' }, body: zlib.gzipSync(Buffer.alloc(10 << 20)) })
    assert.is(bomb.status, 413)
    const corrupt = await fetch(url, { method: 'POST', headers: { 'Content-Encoding': 'gzip' }, body: 'nope' })
    assert.equal([corrupt.status, await corrupt.json()], [400, { error: 'undecodable_body' }])
    const unknown = await fetch(url, { method: 'POST', headers: { 'Content-Encoding': 'compress' }, body: 'x' })
    assert.equal([unknown.status, unknown.headers.get('accept-encoding')], [415, 'gzip, deflate, br, zstd, identity'.replace(', zstd', zlibHasZstd ? ', zstd' : '')])
  } finally {
    await attached.close()
    await closeServer(server)
  }
})

Attach.run()

const Streams = suite('attach :: event streams are clients of the registry')

// An event-stream app beside a host's own routes: a room `r` shared with WebSocket clients,
// posts to the stream's session, and what connects and disconnects.
const streamApp = (gone: number[], more: Partial<AttachOptions> = {}): AttachOptions => ({
  routes: [
    sseRoute('/live', { rooms: ['r'] }),
    ssePostRoute('/live'),
    httpRoute('POST', '/shout', (req, ctx) => {
      ctx.broadcast('said', new TextDecoder().decode(req.rawBody), { room: 'r' })
      return { ok: true }
    }),
    onConnect((ctx) => {
      if (ctx.request.path === '/ws') ctx.joinRoom('r')
    }),
    onDisconnect((ctx) => void gone.push(ctx.clientId)),
    socketOn('double', (n) => (n as number) * 2),
    socketOn('say', (data, ctx) => void ctx.broadcast('said', data, { room: 'r' })),
  ],
  logger: memoryLogger().logger,
  http: true,
  ...more,
})

const dataOf = (data: string | undefined): Record<string, unknown> => JSON.parse(data ?? 'null') as Record<string, unknown>

Streams('a broadcast reaches the stream; a post reaches its session (dispatched, acked on the stream); WebSocket and stream share a room', async () => {
  const server = createHttpServer((_req, res) => res.end('host'))
  const port = await listen(server)
  const twin = attach(server, streamApp([]))
  const base = `http://127.0.0.1:${port}`
  const sse = await openSse(port, '/live')
  const ws = await openClient(port, '/ws')
  try {
    const [session] = await sse.until(1)
    const { sid } = dataOf(session?.data)['data'] as { sid: string }
    assert.equal(twin.clients().map((c) => c.type).sort(), ['sse', 'ws'])
    await eventually(() => twin.namespaces.clientsInRoom('r').length === 2, 2000, 'both in the room')
    assert.equal(await get(`${base}/shout`, { method: 'POST', body: 'to all' }).then((r) => r.status), 200)
    assert.equal(dataOf((await sse.until(2))[1]?.data), { event: 'said', data: 'to all', seq: 1 })
    assert.equal(await ws.nextJson(), { event: 'said', data: 'to all' })
    const post = (text: string): Promise<number> => fetch(`${base}/live`, { method: 'POST', body: text, headers: { 'x-twinport-session': sid } }).then((r) => r.status)
    assert.is(await post(JSON.stringify({ event: 'double', data: 21, id: 1 })), 202)
    assert.equal(dataOf((await sse.until(3))[2]?.data), { event: 'ack', id: 1, data: 42, seq: 2 })
    assert.is(await post(JSON.stringify({ event: 'say', data: 'from the stream' })), 202)
    assert.equal(await ws.nextJson(), { event: 'said', data: 'from the stream' })
    assert.equal(dataOf((await sse.until(4))[3]?.data), { event: 'said', data: 'from the stream', seq: 3 })
    assert.is(await get(`${base}/other`).then((r) => r.body), 'host', "the host's own requests are untouched")
  } finally {
    sse.close()
    ws.ws.close()
    await twin.close()
    await closeServer(server)
  }
})

Streams('the client gone (its socket cut) runs the disconnect handlers; disconnectClient and close() end a stream', async () => {
  const gone: number[] = []
  const server = createHttpServer((_req, res) => res.end('host'))
  const port = await listen(server)
  const twin = attach(server, streamApp(gone, { recovery: false }))
  const streams = [await openSse(port, '/live'), await openSse(port, '/live'), await openSse(port, '/live')]
  try {
    // No event yet (sessions off): the head came at once all the same.
    assert.equal(streams.map((s) => s.status), [200, 200, 200])
    await eventually(() => twin.clients().length === 3, 2000, 'three clients')
    const [first, second] = twin.clients().map((c) => c.id)
    ;(streams[0] as { socket: import('node:net').Socket }).socket.destroy()
    await eventually(() => gone.includes(first as number), 2000, 'the disconnect handler of the cut one')
    twin.disconnectClient(second as number)
    await eventually(() => (streams[1] as { ended(): boolean }).ended() && gone.includes(second as number), 2000, 'the disconnected one ended')
    await twin.close()
    await eventually(() => (streams[2] as { ended(): boolean }).ended() && gone.length === 3, 2000, 'close() ended the last')
    assert.equal(twin.clients(), [])
  } finally {
    for (const stream of streams) stream.close()
    await twin.close()
    await closeServer(server)
  }
})

Streams.run()

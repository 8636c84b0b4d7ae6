/**
 * `runServer({ tls })` end to end: `https://` and `wss://` on one port with a certificate
 * made at test time by `openssl` (spec/support/test-certificates.ts), trusted through its
 * test authority only. Routes, upgrade, rooms, broadcast, limits, time-outs, slow consumers
 * and graceful close behave as without TLS; a plain HTTP client and a stalled handshake are
 * closed and logged at debug; a bad key or certificate is a start-up error naming the
 * option; a new certificate reaches new connections without a restart (Node and Deno; Bun
 * refuses the reload as docs/decisions.md says). npm test runs this file against Node, Bun
 * and Deno: the apps (spec/integration/fixtures/tls.ts) are served by the runtime TWINPORT_TARGET
 * names (Deno's adapter serves TLS through its node:tls), the TLS clients are Node's.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { targetRuntime } from '../support/runtimes.js'
import { delay, eventually, openClient, rawConnect, statusOf } from '../support/server.js'
import { type Issued, makeTestCa, type TestCa } from '../support/test-certificates.js'
import { httpsRequest, secureConnect } from '../support/tls-clients.js'

const runtime = ({ node: 'Node', bun: 'Bun', deno: 'Deno' } as const)[targetRuntime()]

const GET_HELLO = 'GET /hello HTTP/1.1\r\nHost: localhost\r\n\r\n'

interface Ctx {
  ca: TestCa
  first: Issued
  second: Issued
}

const Tls = suite<Ctx>(`runServer :: TLS on ${runtime}`, {} as Ctx)

Tls.before((ctx) => {
  ctx.ca = makeTestCa()
  ctx.first = ctx.ca.issue('server-1')
  ctx.second = ctx.ca.issue('server-2')
})

Tls.after((ctx) => {
  ctx.ca.remove()
})

const startTls = (ctx: Ctx, options: PlainOptions = {}, app: 'app' | 'withEcho' = 'app') => serve('tls', app, { tls: { key: ctx.first.key, cert: ctx.first.cert }, ...options })

Tls('serves https: GET with ALPN http/1.1, the certificate given, and keep-alive on one connection', async (ctx) => {
  const { server, port } = await startTls(ctx)
  try {
    const answer = await httpsRequest(port, '/hello', ctx.ca.ca)
    assert.is(answer.status, 200)
    assert.equal(JSON.parse(answer.body), { hello: 'world' })
    const posted = await httpsRequest(port, '/echo', ctx.ca.ca, { method: 'POST', body: 'over TLS' })
    assert.equal([posted.status, posted.body], [200, 'over TLS'])

    const conn = await secureConnect(port, ctx.ca.ca)
    assert.is(conn.alpn, 'http/1.1')
    assert.is(conn.servedName, 'server-1')
    conn.write(GET_HELLO)
    await conn.until((d) => d.includes('{"hello":"world"}'))
    conn.write(GET_HELLO)
    await conn.until((d) => d.toString().split('{"hello":"world"}').length === 3)
    assert.is(statusOf(conn.received().toString()), 200)
    assert.is((await server.clients()).length, 1, 'one kept-alive connection served both')
    conn.socket.destroy()
  } finally {
    await server.close()
  }
})

Tls('serves wss: upgrade, an acknowledged event, rooms and a broadcast', async (ctx) => {
  const { server, port } = await startTls(ctx)
  try {
    const options = { ca: ctx.ca.ca }
    const [a, b, c] = await Promise.all([openClient(port, '/', options, 'wss'), openClient(port, '/', options, 'wss'), openClient(port, '/', options, 'wss')])
    if (a === undefined || b === undefined || c === undefined) throw new Error('three clients expected')
    a.emit('echo', { x: 1 }, 1)
    assert.equal(await a.nextJson(), { event: 'ack', id: 1, data: { x: 1 } })
    a.emit('join', 'r', 'a')
    b.emit('join', 'r', 'b')
    assert.equal(await a.nextJson(), { event: 'ack', id: 'a', data: 'joined' })
    assert.equal(await b.nextJson(), { event: 'ack', id: 'b', data: 'joined' })
    assert.is(await server.broadcast('news', 'for r', { room: 'r' }), 2)
    assert.is(await server.broadcast('all', 'for all'), 3)
    assert.equal(await a.nextJson(), { event: 'news', data: 'for r' })
    assert.equal(await b.nextJson(), { event: 'news', data: 'for r' })
    assert.equal(await c.nextJson(), { event: 'all', data: 'for all' }, 'c, not in the room, got only the second')
    for (const client of [a, b, c]) client.ws.close()
  } finally {
    await server.close()
  }
})

Tls('limits and time-outs hold over TLS: 413, 408, the idle keep-alive close, and 1009', async (ctx) => {
  const limits = { maxBody: 16, headerTimeoutMs: 100, keepAliveTimeoutMs: 100, maxFramePayload: 64, maxMessage: 64 }
  const { server, port } = await startTls(ctx, { limits }, 'withEcho')
  try {
    const big = await secureConnect(port, ctx.ca.ca)
    big.write(`POST /echo HTTP/1.1\r\nHost: localhost\r\nContent-Length: 100\r\n\r\n${'x'.repeat(100)}`)
    assert.is(statusOf((await big.closed(3000)).toString()), 413)

    const slow = await secureConnect(port, ctx.ca.ca)
    slow.write('GET /hello HTTP/1.1\r\nHost: loc')
    assert.is(statusOf((await slow.closed(3000)).toString()), 408)

    const idle = await secureConnect(port, ctx.ca.ca)
    idle.write(GET_HELLO)
    await idle.until((d) => d.includes('{"hello":"world"}'))
    await idle.closed(3000) // idle past keepAliveTimeoutMs

    const ws = await openClient(port, '/', { ca: ctx.ca.ca }, 'wss')
    ws.ws.send('y'.repeat(100))
    assert.is((await ws.closed(3000)).code, 1009)
  } finally {
    await server.close()
  }
})

Tls("a client that stops reading is dropped as a slow consumer: the TLS socket's backlog is measured", async (ctx) => {
  // Deno's TLS streams take every write at once (no backpressure reaches JavaScript), so no
  // backlog can be measured there: the heartbeat drops the client that stopped reading.
  const deno = runtime === 'Deno'
  if (deno) console.log('[run-server-tls] Deno buffers TLS writes without bound (docs/decisions.md "TLS"): checking that the heartbeat drops the stuck client')
  const limits = { maxSendBuffer: 256 << 10, closeTimeoutMs: 200, ...(deno ? { heartbeatIntervalMs: 200 } : {}) }
  const { server, port } = await startTls(ctx, { limits })
  try {
    const records = await server.records() // the same array, growing as the server logs
    const stuck = await secureConnect(port, ctx.ca.ca)
    stuck.write('GET / HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n')
    await stuck.until((d) => d.includes('\r\n\r\n'))
    assert.ok(stuck.received().toString().startsWith('HTTP/1.1 101'))
    stuck.socket.pause()
    const chunk = 'x'.repeat(64 << 10)
    const verdict = (): boolean => records.some((r) => r.message.startsWith('slow consumer'))
    // Bounded: the verdict must come long before 32 MiB are queued.
    for (let sent = 0; sent < 512 && !verdict() && (await server.clients()).length > 0; sent++) {
      await server.broadcast('chunk', chunk)
      await delay(1)
    }
    if (!deno) {
      const verdicts = records.filter((r) => r.message.startsWith('slow consumer'))
      assert.is(verdicts.length, 1, 'one slow-consumer verdict')
      assert.is(verdicts[0]?.level, 'warning')
    }
    await eventually(async () => (await server.clients()).length === 0, 5000, 'the slow client to be gone')
    stuck.socket.destroy()
  } finally {
    await server.close()
  }
})

Tls('plain HTTP sent to the TLS port: closed without an HTTP answer, logged at debug, and the server keeps serving', async (ctx) => {
  const { server, port } = await startTls(ctx, { debug: true })
  try {
    const plain = await rawConnect(port)
    plain.write(GET_HELLO)
    const got = (await plain.closed(3000)).toString('latin1')
    assert.not.ok(got.includes('HTTP/1.1'), `no HTTP answer, got ${JSON.stringify(got)}`)
    await eventually(async () => (await server.records()).some((r) => r.level === 'debug' && r.message === 'tls handshake failed'), 2000, 'the debug entry')
    assert.is((await server.clients()).length, 0)
    assert.is((await httpsRequest(port, '/hello', ctx.ca.ca)).status, 200)
  } finally {
    await server.close()
  }
})

Tls('a TLS handshake that stalls is closed after tlsHandshakeTimeoutMs and logged at debug; it is never a client', async (ctx) => {
  const { server, port } = await startTls(ctx, { debug: true, limits: { tlsHandshakeTimeoutMs: 200 } })
  try {
    const silent = await rawConnect(port)
    // The start of a TLS record (handshake, TLS 1.0 framing, 512 bytes announced), then nothing.
    const partial = await rawConnect(port)
    partial.write(Buffer.from('1603010200', 'hex'))
    await delay(50)
    assert.is((await server.clients()).length, 0, 'a connection in its handshake is not a client')
    await silent.closed(5000)
    await partial.closed(5000)
    await eventually(async () => (await server.records()).filter((r) => r.level === 'debug' && r.message === 'tls handshake timed out').length === 2, 2000, 'two debug entries')
    assert.is((await httpsRequest(port, '/hello', ctx.ca.ca)).status, 200)
  } finally {
    await server.close()
  }
})

Tls('a client that resets the connection during its handshake does not disturb the server', async (ctx) => {
  const { server, port } = await startTls(ctx)
  try {
    for (let i = 0; i < 3; i++) {
      const conn = await rawConnect(port)
      conn.write(Buffer.from('16030102000100', 'hex'))
      await delay(10)
      conn.socket.resetAndDestroy()
    }
    await delay(50)
    assert.is((await httpsRequest(port, '/hello', ctx.ca.ca)).status, 200)
  } finally {
    await server.close()
  }
})

Tls('a bad key or certificate is a start-up error naming the option', async (ctx) => {
  const { first, second } = ctx
  const refused = async (tls: unknown, pattern: RegExp): Promise<void> => {
    const error = await serve('tls', 'bare', { tls: tls as PlainOptions['tls'] }).then(
      async ({ server }) => {
        await server.close()
        return undefined
      },
      (e: unknown) => e as Error,
    )
    assert.ok(error instanceof Error, `expected ${pattern} to be refused`)
    assert.match(error.message, /^runServer: invalid options/)
    assert.match(error.message, pattern)
  }
  await refused({ key: 'not a key', cert: first.cert }, /tls\.key: not a private key in PEM/)
  await refused({ key: first.key, cert: 'not a certificate' }, /tls\.cert: not a certificate in PEM/)
  await refused({ key: second.key, cert: first.cert }, /tls\.cert: the certificate \(CN=server-1\) does not belong to tls\.key/)
  const encrypted = ctx.ca.encryptKey(first, 'open sesame')
  await refused({ key: encrypted, cert: first.cert }, /tls\.key: the key is encrypted; give its passphrase as tls\.passphrase/)
  await refused({ key: encrypted, cert: first.cert, passphrase: 'wrong' }, /tls\.passphrase: does not decrypt tls\.key/)
  await refused({ key: first.key }, /tls\.cert: expected PEM text/)
  await refused({ key: first.key, cert: first.cert, certificate: first.cert }, /tls\.certificate: not a TLS option/)
})

Tls('an encrypted key with its passphrase, and PEM given as bytes (what a file read answers)', async (ctx) => {
  const key = ctx.ca.encryptKey(ctx.first, 'open sesame')
  const { server, port } = await serve('tls', 'app', { tls: { key: new TextEncoder().encode(key), cert: new TextEncoder().encode(ctx.first.cert), passphrase: 'open sesame' } })
  try {
    assert.is((await httpsRequest(port, '/hello', ctx.ca.ca)).status, 200)
  } finally {
    await server.close()
  }
})

Tls('ca: the authority completing the chain is accepted', async (ctx) => {
  const { server, port } = await serve('tls', 'app', { tls: { key: ctx.first.key, cert: ctx.first.cert, ca: ctx.ca.ca } })
  try {
    assert.is((await httpsRequest(port, '/hello', ctx.ca.ca)).status, 200)
  } finally {
    await server.close()
  }
})

Tls('setSecureContext: new connections get the new certificate, open ones keep theirs; bad material changes nothing', async (ctx) => {
  const { server, port } = await startTls(ctx)
  try {
    const before = await secureConnect(port, ctx.ca.ca)
    assert.is(before.servedName, 'server-1')
    if (runtime === 'Bun') {
      console.log('[run-server-tls] certificate reload is not available on Bun (docs/decisions.md "TLS"): checking that it is refused')
      await server.setSecureContext({ key: ctx.second.key, cert: ctx.second.cert }).then(
        () => assert.unreachable('the reload should be refused'),
        (e: unknown) => assert.match((e as Error).message, /setSecureContext: not available on Bun/),
      )
      assert.is((await secureConnect(port, ctx.ca.ca)).servedName, 'server-1')
      before.socket.destroy()
      return
    }
    await server.setSecureContext({ key: ctx.second.key, cert: ctx.second.cert })
    const after = await secureConnect(port, ctx.ca.ca)
    assert.is(after.servedName, 'server-2')
    // The connection opened before the reload still works.
    before.write(GET_HELLO)
    await before.until((d) => d.includes('{"hello":"world"}'))
    await server.setSecureContext({ key: ctx.first.key, cert: ctx.second.cert }).then(
      () => assert.unreachable('a mismatched pair should be refused'),
      (e: unknown) => assert.match((e as Error).message, /^setSecureContext: invalid options\n {2}tls\.cert: the certificate \(CN=server-2\) does not belong to tls\.key/),
    )
    await server.setSecureContext({ cert: ctx.first.cert } as never).then(
      () => assert.unreachable('a missing key should be refused'),
      (e: unknown) => assert.match((e as Error).message, /tls\.key: expected PEM text/),
    )
    assert.is((await secureConnect(port, ctx.ca.ca)).servedName, 'server-2', 'the refused reloads changed nothing')
    for (const conn of [before, after]) conn.socket.destroy()
  } finally {
    await server.close()
  }
})

Tls('setSecureContext on a server started without tls is refused', async () => {
  const { server } = await serve('tls', 'app')
  try {
    await server.setSecureContext({ key: 'k', cert: 'c' }).then(
      () => assert.unreachable('should be refused'),
      (e: unknown) => assert.match((e as Error).message, /setSecureContext: the server was started without the tls option/),
    )
  } finally {
    await server.close()
  }
})

Tls('graceful close: wss clients get 1001, and a connection still in its handshake does not hold up close()', async (ctx) => {
  const { server, port } = await startTls(ctx, { limits: { tlsHandshakeTimeoutMs: 60_000 } })
  const ws = await openClient(port, '/', { ca: ctx.ca.ca }, 'wss')
  const stalled = await rawConnect(port)
  let closed = false
  const closing = server.close().then(() => {
    closed = true
  })
  assert.is((await ws.closed(5000)).code, 1001)
  await eventually(() => closed, 5000, 'close() to resolve with a handshake pending')
  await stalled.closed(5000)
  await closing
})

Tls.run()

/**
 * The client's automatic fallback (issue 23, "Both directions without WebSocket"), end to end:
 * `connect(url, { fallback: sseFallback() })` behind a proxy that answers 403 to any upgrade (or
 * never answers it) goes on over Server-Sent Events and `POST` by itself, with its typed events,
 * acknowledged requests and broadcasts; it survives a server restart (its stream comes back
 * with `Last-Event-ID`); and once the proxy lets upgrades through, its probe moves the same
 * session back to WebSocket with nothing lost or doubled. The server is an app of
 * spec/integration/fixtures/sse.ts served by the runtime TWINPORT_TARGET names; the client is
 * Node's, its WebSocket the one of spec/support/client.ts.
 */
import { connect as netConnect, createServer, type Server, type Socket } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, openClient } from '../support/server.js'
import { WebSocketImpl } from '../support/client.js'
import { connect } from '../../lib/client/connect.js'
import { sseFallback } from '../../lib/client/fallback.js'

const Fallback = suite('runServer :: the client\'s fallback')

const options: PlainOptions = { limits: { heartbeatIntervalMs: 300 } }

/** What the proxy does with an upgrade: refuse it (403), swallow it (no answer), or pass it. */
type UpgradeMode = 'refuse' | 'hang' | 'pass'

interface UpgradeProxy {
  readonly port: number
  mode: UpgradeMode
  /** Where the next connections go. */
  pointAt(port: number): void
  /** How many upgrades it refused or swallowed. */
  readonly blocked: number
  close(): Promise<void>
}

// A middlebox that breaks WebSocket: every connection's first request is looked at; an
// `Upgrade` gets what `mode` says, anything else is piped to the server as it came.
const startUpgradeProxy = (target: number, mode: UpgradeMode): Promise<UpgradeProxy> =>
  new Promise((resolve, reject) => {
    let to = target
    const open = new Set<Socket>()
    const proxy: { -readonly [K in keyof UpgradeProxy]: UpgradeProxy[K] } = { port: 0, mode, blocked: 0, pointAt: (p) => void (to = p), close: async () => undefined }
    const server: Server = createServer((front) => {
      open.add(front)
      front.on('error', () => front.destroy()).on('close', () => open.delete(front))
      front.once('data', (first: Buffer) => {
        const head = first.toString('latin1').split('\r\n\r\n')[0] ?? ''
        if (/\r\nupgrade:/i.test(head) && proxy.mode !== 'pass') {
          proxy.blocked++
          if (proxy.mode === 'refuse') front.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
          return
        }
        const back = netConnect(to, '127.0.0.1')
        open.add(back)
        const end = (): void => {
          front.destroy()
          back.destroy()
          open.delete(back)
        }
        back.on('error', end).on('close', end)
        front.on('close', end)
        back.write(first)
        front.pipe(back)
        back.pipe(front)
      })
    })
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      proxy.port = typeof address === 'object' && address !== null ? address.port : 0
      proxy.close = () =>
        new Promise<void>((done) => {
          for (const socket of open) socket.destroy()
          server.close(() => done())
        })
      resolve(proxy)
    })
  })

const typesOf = async (server: { clients(): Promise<readonly { id: number; type: string }[]> }): Promise<string[]> =>
  (await server.clients()).filter((c) => c.type !== 'http').map((c) => c.type)

Fallback('upgrades refused with 403: the client goes on over SSE and POST by itself (events, acks, broadcasts both ways), and survives a server restart', async () => {
  let { server, port } = await serve('sse', 'main', options)
  const proxy = await startUpgradeProxy(port, 'refuse')
  const client = connect(`http://127.0.0.1:${proxy.port}/events`, {
    WebSocket: WebSocketImpl,
    fallback: sseFallback({ probeInterval: 200 }),
    reconnect: { minDelay: 50, maxDelay: 100 },
    timeout: 3000,
  })
  const said: unknown[] = []
  const sessions: { id: string; recovered: boolean; resync?: string }[] = []
  client.on('said', (data: unknown) => void said.push(data))
  client.on('session', (s) => void sessions.push(s))
  try {
    assert.is(await client.request('double', 21), 42)
    assert.equal(await typesOf(server), ['sse'])
    assert.ok(proxy.blocked >= 1)
    // A WebSocket client of the room (straight to the server) and the fallback client hear each other.
    const ws = await openClient(port, '/ws')
    await eventually(async () => (await server.namespaces.clientsInRoom('r')).length === 2, 2000, 'both in the room')
    client.emit('say', 'over SSE')
    assert.equal(JSON.parse(await ws.next()), { event: 'said', data: 'over SSE' })
    ws.ws.send(JSON.stringify({ event: 'say', data: 'over WebSocket' }))
    await eventually(() => said.length === 2, 2000, 'both broadcasts')
    assert.equal(said, ['over SSE', 'over WebSocket'])
    // Probes keep failing (403): the link stays on the stream, and what is sent meanwhile arrives.
    await delay(500)
    assert.ok(proxy.blocked >= 3, `probes: ${proxy.blocked}`)
    assert.equal(await Promise.all([1, 2, 3].map((n) => client.request('double', n))), [2, 4, 6])
    assert.equal(await typesOf(server), ['sse', 'ws'])
    ws.ws.close()
    // The server restarts (on another port, the proxy follows): the stream comes back with
    // Last-Event-ID, which the new server does not know: a fresh session, told as a resync.
    await server.close()
    ;({ server, port } = await serve('sse', 'main', options))
    proxy.pointAt(port)
    await eventually(() => sessions.length === 2, 5000, 'a session from the new server')
    assert.is(sessions[1]?.recovered, false)
    assert.is(sessions[1]?.resync, 'unknown_session')
    assert.is(await client.request('double', 50), 100)
    assert.equal(await typesOf(server), ['sse'])
  } finally {
    client.close()
    await proxy.close()
    await server.close()
  }
})

Fallback('an upgrade nobody answers: the event stream after upgradeTimeout', async () => {
  const { server, port } = await serve('sse', 'main', options)
  const proxy = await startUpgradeProxy(port, 'hang')
  const client = connect(`http://127.0.0.1:${proxy.port}/events`, { WebSocket: WebSocketImpl, fallback: sseFallback({ upgradeTimeout: 150 }), timeout: 3000 })
  try {
    const started = Date.now()
    assert.is(await client.request('double', 4), 8)
    assert.ok(Date.now() - started >= 150)
    assert.equal(await typesOf(server), ['sse'])
  } finally {
    client.close()
    await proxy.close()
    await server.close()
  }
})

Fallback('once upgrades pass again, the probe moves the same session back to WebSocket: nothing lost or doubled', async () => {
  const { server, port } = await serve('sse', 'main', options)
  const proxy = await startUpgradeProxy(port, 'refuse')
  const client = connect(`http://127.0.0.1:${proxy.port}/events`, { WebSocket: WebSocketImpl, fallback: sseFallback({ probeInterval: 300 }), timeout: 3000 })
  const said: unknown[] = []
  const sessions: { id: string; recovered: boolean }[] = []
  client.on('said', (data: unknown) => void said.push(data))
  client.on('session', (s) => void sessions.push(s))
  try {
    assert.is(await client.request('double', 1), 2)
    const [before] = (await server.clients()).filter((c) => c.type === 'sse')
    proxy.mode = 'pass'
    // Broadcasts and requests go on while the link moves.
    let n = 0
    const asked: Promise<unknown>[] = []
    while ((await typesOf(server))[0] !== 'ws' && n < 60) {
      await server.broadcast('said', ++n, { room: 'r' })
      asked.push(client.request('double', n))
      await delay(25)
    }
    assert.equal(await typesOf(server), ['ws'])
    await server.broadcast('said', ++n, { room: 'r' })
    assert.equal(await Promise.all(asked), asked.map((_, i) => 2 * (i + 1)))
    await eventually(() => said.length === n, 3000, 'every broadcast')
    await delay(100)
    assert.equal(said, Array.from({ length: n }, (_, i) => i + 1))
    // The same client (its id, rooms and session), resumed on the WebSocket.
    assert.is((await server.clients()).find((c) => c.type === 'ws')?.id, before?.id)
    assert.equal(sessions.map((s) => [s.id, s.recovered]), [[sessions[0]?.id, false], [sessions[0]?.id, true]])
    assert.is(await client.request('double', 21), 42)
    assert.is((await server.probe('connects')).length, 1)
  } finally {
    client.close()
    await proxy.close()
    await server.close()
  }
})

Fallback('origins: an event stream opens only for an origin the upgrade would take; a post marked cross-site is refused unless its origin is listed by name', async () => {
  const { server, port } = await serve('sse', 'main', { ...options, allowedOrigins: ['https://app.example', 'https://partner.example'] })
  const base = `http://127.0.0.1:${port}/events`
  try {
    const refused = await fetch(base, { headers: { accept: 'text/event-stream', origin: 'https://evil.example' } })
    assert.is(refused.status, 403)
    assert.equal(await typesOf(server), [])
    const controller = new AbortController()
    const opened = await fetch(base, { headers: { accept: 'text/event-stream', origin: 'https://app.example' }, signal: controller.signal })
    assert.is(opened.status, 200)
    const reader = (opened.body as ReadableStream<Uint8Array>).getReader()
    let text = ''
    while (!text.includes('"sid"')) text += new TextDecoder().decode((await reader.read()).value)
    const sid = /"sid":"([^"]+)"/.exec(text)?.[1] as string
    const post = (headers: Record<string, string>): Promise<number> =>
      fetch(base, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-twinport-session': sid, ...headers }, body: '{"event":"double","data":1,"id":1}' }).then((r) => r.status)
    assert.is(await post({ origin: 'https://evil.example' }), 403)
    assert.is(await post({ origin: 'https://partner.example', 'sec-fetch-site': 'cross-site' }), 202)
    assert.is(await post({ origin: 'https://app.example', 'sec-fetch-site': 'same-origin' }), 202)
    assert.is(await post({}), 202)
    controller.abort()
  } finally {
    await server.close()
  }
  // With every origin allowed ('*', the default), a browser's cross-site post is still refused.
  const open = await serve('sse', 'main', options)
  try {
    const status = await fetch(`http://127.0.0.1:${open.port}/events`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain', 'x-twinport-session': 'AnySession', origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      body: '{"event":"double","data":1}',
    }).then((r) => r.status)
    assert.is(status, 403)
  } finally {
    await open.server.close()
  }
})

Fallback.run()

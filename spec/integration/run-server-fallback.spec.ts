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
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, openClient } from '../support/server.js'
import { WebSocketImpl } from '../support/client.js'
import { startUpgradeProxy } from '../support/upgrade-proxy.js'
import { connect } from '../../lib/client/connect.js'
import { sseFallback } from '../../lib/client/fallback.js'

const Fallback = suite('runServer :: the client\'s fallback')

const options: PlainOptions = { limits: { heartbeatIntervalMs: 300 } }

// What arrived against 1..n: the numbers lost, those doubled, and the order when it is not 1..n.
const receipts = (said: readonly unknown[], n: number): string => {
  const count = new Map<unknown, number>()
  for (const x of said) count.set(x, (count.get(x) ?? 0) + 1)
  const lost = Array.from({ length: n }, (_, i) => i + 1).filter((x) => !count.has(x))
  const doubled = [...count].filter(([, c]) => c > 1).map(([x]) => x)
  const stray = [...count.keys()].filter((x) => !(Number.isInteger(x) && (x as number) >= 1 && (x as number) <= n))
  return `said ${said.length} of ${n}: lost [${lost.join(',')}], doubled [${doubled.join(',')}]${stray.length > 0 ? `, not sent [${stray.join(',')}]` : ''}, in order ${JSON.stringify(said)}`
}

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
    // On a failure: which broadcasts were lost or doubled, and the sessions and connects seen.
    const what = async (): Promise<string> =>
      `${receipts(said, n)}; sessions ${JSON.stringify(sessions)}; connects ${JSON.stringify(await server.probe('connects'))}; disconnects ${JSON.stringify(await server.probe('disconnects'))}`
    await eventually(() => said.length === n, 3000, 'every broadcast').catch(async (error: unknown) => {
      throw new Error(`${String(error)}: ${await what()}`)
    })
    await delay(100)
    assert.equal(said, Array.from({ length: n }, (_, i) => i + 1), await what())
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

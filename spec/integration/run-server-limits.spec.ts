/**
 * Rate limits and connection limits on a real socket (issue 25; docs/guide.md "Operations:
 * rate limits"): 429 with Retry-After for an HTTP route, the `rate_limited` error event with
 * `retryAfterMs` for an event (the connection stays; 1008 after repeated refusals), keys of the
 * application's, connections per address, handshake rates, and refusals logged once per
 * window. The app (spec/integration/fixtures/limits.ts) is served by the runtime
 * TWINPORT_TARGET names.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { serve } from '../support/fixture-server.js'
import { eventually } from '../support/server.js'

interface Message {
  readonly event: string
  readonly data?: { readonly error?: string; readonly retryAfterMs?: number } | unknown
  readonly id?: unknown
}

interface Peer {
  readonly ws: WebSocket
  readonly got: Message[]
  readonly closed: () => { code: number; reason: string } | undefined
}

const open = (port: number, headers: Record<string, string> = {}): Promise<Peer> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/`, { headers })
    const got: Message[] = []
    let close: { code: number; reason: string } | undefined
    ws.on('message', (data: Buffer) => got.push(JSON.parse(data.toString()) as Message))
    ws.on('close', (code: number, reason: Buffer) => void (close = { code, reason: reason.toString('utf8') }))
    ws.on('error', () => undefined)
    ws.once('open', () => resolve({ ws, got, closed: () => close }))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode} retry-after ${res.headers['retry-after'] ?? '-'}`)))
  })

const answerOf = async (peer: Peer, id: number): Promise<Message> => {
  await eventually(() => peer.got.some((m) => m.id === id), 3000, `the answer ${id}`)
  return peer.got.find((m) => m.id === id) as Message
}

// The refusal of an upgrade: `status N retry-after S`.
const refusal = (opening: Promise<Peer>): Promise<string> =>
  opening.then(
    (peer) => {
      peer.ws.close()
      return 'opened'
    },
    (error: Error) => error.message,
  )

const Limits = suite('runServer :: rate limits and connection limits')

Limits('an HTTP route past its limit answers 429 with Retry-After; other routes are not counted', async () => {
  const { server, url } = await serve('limits', 'app')
  try {
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push((await fetch(`${url}/limited`)).status)
    assert.equal(statuses, [200, 200, 429])
    const refused = await fetch(`${url}/limited`)
    assert.is(refused.status, 429)
    assert.is(refused.headers.get('retry-after'), '30')
    assert.equal(await refused.json(), { error: 'too_many_requests' })
    assert.is((await fetch(`${url}/free`)).status, 200)
  } finally {
    await server.close()
  }
})

Limits('the address behind a trusted proxy is the key: two clients of one proxy have a bucket each', async () => {
  const { server, url } = await serve('limits', 'app', { rateLimits: { trustedProxies: 1 } })
  try {
    const get = async (forwardedFor: string): Promise<number> => (await fetch(`${url}/limited`, { headers: { 'X-Forwarded-For': forwardedFor } })).status
    assert.equal([await get('spoof, 203.0.113.7'), await get('203.0.113.7'), await get('other, 203.0.113.7')], [200, 200, 429])
    assert.is(await get('203.0.113.8'), 200)
  } finally {
    await server.close()
  }
})

Limits('an event past its limit: rate_limited with retryAfterMs, acked with the error; the connection stays; 1008 after 3 refusals', async () => {
  const { server, port } = await serve('limits', 'app')
  try {
    const peer = await open(port)
    for (let id = 1; id <= 3; id++) peer.ws.send(JSON.stringify({ event: 'chat', data: id, id }))
    assert.equal((await answerOf(peer, 1)).event, 'ack')
    assert.equal((await answerOf(peer, 2)).event, 'ack')
    const refused = await answerOf(peer, 3)
    assert.is(refused.event, 'error')
    const data = refused.data as { error: string; retryAfterMs: number }
    assert.is(data.error, 'rate_limited')
    assert.ok(data.retryAfterMs > 29_000 && data.retryAfterMs <= 30_000, String(data.retryAfterMs))
    // Still usable: an unlimited event is answered.
    peer.ws.send(JSON.stringify({ event: 'free', id: 4 }))
    assert.is((await answerOf(peer, 4)).data, 'free')
    // Two more refusals: the third in the window closes with 1008.
    peer.ws.send(JSON.stringify({ event: 'chat', data: 5, id: 5 }))
    peer.ws.send(JSON.stringify({ event: 'chat', data: 6, id: 6 }))
    await eventually(() => peer.closed() !== undefined, 3000, 'the 1008 close')
    assert.equal(peer.closed(), { code: 1008, reason: 'rate limit exceeded' })
    const logs = await server.records()
    const limited = logs.filter((r) => String(r.message).startsWith('rate limited'))
    assert.is(limited.length, 1, 'one line for the window, not one per refusal')
  } finally {
    await server.close()
  }
})

Limits('a key the application computes: one bucket per user, whichever connection asks', async () => {
  const { server, port } = await serve('limits', 'app')
  try {
    const [a, b] = [await open(port), await open(port)]
    a.ws.send(JSON.stringify({ event: 'save', data: { user: 'ada' }, id: 1 }))
    assert.is((await answerOf(a, 1)).data, 'saved')
    b.ws.send(JSON.stringify({ event: 'save', data: { user: 'ada' }, id: 1 }))
    assert.is(((await answerOf(b, 1)).data as { error: string }).error, 'rate_limited')
    b.ws.send(JSON.stringify({ event: 'save', data: { user: 'bob' }, id: 2 }))
    assert.is((await answerOf(b, 2)).data, 'saved')
    a.ws.close()
    b.ws.close()
  } finally {
    await server.close()
  }
})

Limits('maxConnectionsPerIp: the next upgrade gets 429; a place frees when a connection closes', async () => {
  const { server, port } = await serve('limits', 'app', { rateLimits: { maxConnectionsPerIp: 2 } })
  try {
    const a = await open(port)
    const b = await open(port)
    assert.match(await refusal(open(port)), /status 429/)
    a.ws.close()
    await eventually(async () => (await server.clients()).length === 1, 3000, 'the close')
    const c = await open(port)
    b.ws.close()
    c.ws.close()
  } finally {
    await server.close()
  }
})

Limits('handshake rates: per address 429, for the node 503, each with Retry-After', async () => {
  const perIp = await serve('limits', 'app', { rateLimits: { handshakesPerIp: { limit: 1, windowMs: 60_000 } } })
  try {
    ;(await open(perIp.port)).ws.close()
    assert.match(await refusal(open(perIp.port)), /status 429 retry-after 60/)
  } finally {
    await perIp.server.close()
  }
  const all = await serve('limits', 'app', { rateLimits: { handshakes: { limit: 1, windowMs: 2000 } } })
  try {
    ;(await open(all.port)).ws.close()
    assert.match(await refusal(open(all.port)), /status 503 retry-after 2/)
    // Plain HTTP is not a handshake.
    assert.is((await fetch(`${all.url}/free`)).status, 200)
  } finally {
    await all.server.close()
  }
})

Limits.run()

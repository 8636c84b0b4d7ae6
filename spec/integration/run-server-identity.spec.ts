/**
 * Handshake identity, refusals and kicks on a real socket (docs/protocol.md, "Refused upgrades
 * and kicks"; issue 28): spoken by plain `ws` clients, so the wire is checked, and by
 * twinport/client, so its `refused`/`kicked` events are. The app
 * (spec/integration/fixtures/identity.ts) is served by the runtime TWINPORT_TARGET names.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { connect as connectClient } from '../../lib/client/connect.js'
import { nextOf, record, WebSocketImpl } from '../support/client.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually } from '../support/server.js'

interface Message {
  readonly event: string
  readonly data?: unknown
  readonly id?: unknown
}

interface Peer {
  readonly ws: WebSocket
  readonly got: Message[]
  /** The close code and reason, once closed. */
  readonly closed: () => { code: number; reason: string } | undefined
}

// A ws client that keeps every parsed message and its close; `unexpected-response` rejects with the status.
const open = (port: number, query: string): Promise<Peer> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/?${query}`)
    const got: Message[] = []
    let close: { code: number; reason: string } | undefined
    ws.on('message', (data: Buffer) => got.push(JSON.parse(data.toString()) as Message))
    ws.on('close', (code: number, reason: Buffer) => void (close = { code, reason: reason.toString('utf8') }))
    ws.on('error', () => undefined)
    ws.once('open', () => resolve({ ws, got, closed: () => close }))
    ws.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)))
  })

const answerOf = async (peer: Peer, id: number): Promise<unknown> => {
  await eventually(() => peer.got.some((m) => m.id === id), 3000, `the answer ${id}`)
  return peer.got.find((m) => m.id === id)?.data
}

const Identity = suite('runServer :: handshake identity, refusals and kicks')

Identity('an admitted upgrade: onConnect and every handler see the identity the middleware found; onDisconnect too', async () => {
  const { server, port } = await serve('identity', 'app')
  try {
    const peer = await open(port, 'token=ok-ada')
    peer.ws.send(JSON.stringify({ event: 'whoami', id: 1 }))
    assert.is(await answerOf(peer, 1), 'ada')
    const id = (await server.clients())[0]?.id
    assert.equal(await server.getClientData(id as number, 'user'), 'ada')
    peer.ws.close()
    await eventually(async () => (await server.probe('seen')).length === 2, 3000, 'the disconnect')
    assert.equal(await server.probe('seen'), [`connect ${id} ada`, `disconnect ${id} ada`])
  } finally {
    await server.close()
  }
})

Identity('a refused upgrade without tp_c/tp_v stays an HTTP 401', async () => {
  const { server, port } = await serve('identity', 'app')
  try {
    const refused = await open(port, 'token=nope').then(
      () => 'opened',
      (error: Error) => error.message,
    )
    assert.is(refused, 'status 401')
    await eventually(async () => (await server.clients()).length === 0, 3000, 'the refused connection gone')
    assert.equal(await server.probe('seen'), [])
  } finally {
    await server.close()
  }
})

for (const query of ['tp_c=1', 'tp_v=1']) {
  Identity(`a refused upgrade asked with ${query}: 101, then close 4401 "bad token" and nothing else; no client, no hooks`, async () => {
    const { server, port } = await serve('identity', 'app')
    try {
      const peer = await open(port, `token=nope&${query}`)
      await eventually(() => peer.closed() !== undefined, 3000, 'the close')
      assert.equal(peer.closed(), { code: 4401, reason: 'bad token' })
      assert.equal(peer.got, [])
      await eventually(async () => (await server.clients()).length === 0, 3000, 'no client left')
      assert.equal(await server.probe('seen'), [])
      // The server still admits the next one.
      const next = await open(port, `token=ok-bob&${query}`)
      next.ws.send(JSON.stringify({ event: 'whoami', id: 2 }))
      assert.is(await answerOf(next, 2), 'bob')
      next.ws.close()
    } finally {
      await server.close()
    }
  })
}

Identity('a kick from the server handle and from a handler: the code and reason arrive; the session ends (onDisconnect runs)', async () => {
  const { server, port } = await serve('identity', 'app')
  try {
    const a = await open(port, 'token=ok-ada&tp_v=1')
    await eventually(async () => (await server.clients()).length === 1, 3000, 'connected')
    const id = (await server.clients())[0]?.id as number
    await server.disconnectClient(id, { code: 4403, reason: 'banned' })
    await eventually(() => a.closed() !== undefined, 3000, 'the kick')
    assert.equal(a.closed(), { code: 4403, reason: 'banned' })
    await eventually(async () => (await server.probe('seen')).includes(`disconnect ${id} ada`), 3000, 'onDisconnect')
    const b = await open(port, 'token=ok-bob')
    b.ws.send(JSON.stringify({ event: 'kick-me', id: 1 }))
    await eventually(() => b.closed() !== undefined, 3000, 'the kick')
    assert.equal(b.closed(), { code: 4001, reason: 'asked' })
    await eventually(async () => (await server.clients()).length === 0, 3000, 'no client left')
  } finally {
    await server.close()
  }
})

Identity('a kick with a code outside 4000–4999 or a reason over 123 bytes is refused, and nothing is closed', async () => {
  const { server, port } = await serve('identity', 'app')
  try {
    const a = await open(port, 'token=ok-ada')
    await eventually(async () => (await server.clients()).length === 1, 3000, 'connected')
    const id = (await server.clients())[0]?.id as number
    for (const options of [{ code: 1000 }, { code: 5000 }, { code: 4000, reason: 'é'.repeat(62) }]) {
      const failed = await server.disconnectClient(id, options).then(
        () => 'closed',
        (error: Error) => error.message,
      )
      assert.is.not(failed, 'closed', JSON.stringify(options))
    }
    await delay(30)
    assert.is(a.closed(), undefined)
    a.ws.close()
  } finally {
    await server.close()
  }
})

for (const sessions of [true, false]) {
  Identity(`twinport/client: "refused" with 4401, not retried; reconnect() with a renewed token; then "kicked" (sessions: ${sessions})`, async () => {
    const { server, url } = await serve('identity', 'app')
    let token = 'nope'
    const c = connectClient(url, { WebSocket: WebSocketImpl, sessions, auth: () => ({ token }), reconnect: { minDelay: 5, maxDelay: 20 }, random: () => 0 })
    const log = record(c, ['reconnecting', 'refused', 'kicked'])
    try {
      assert.equal(await nextOf(c, 'refused'), { code: 4401, reason: 'bad token' })
      await delay(60)
      assert.is(c.state, 'closed')
      token = 'ok-ada'
      c.reconnect()
      await nextOf(c, 'open')
      assert.is(await c.request('whoami'), 'ada')
      const id = (await server.clients())[0]?.id as number
      await server.disconnectClient(id, { code: 4409, reason: 'replaced' })
      assert.equal(await nextOf(c, 'kicked'), { code: 4409, reason: 'replaced' })
      await delay(60)
      assert.is(c.state, 'closed')
      assert.equal(log.map(([event]) => event), ['refused', 'kicked'])
    } finally {
      c.close()
      await server.close()
    }
  })
}

Identity.run()

/**
 * Server→client requests on a real socket (docs/protocol.md, "Server requests"; issue 28):
 * twinport/client answers with `client.handle`, plain `ws` clients show the wire and what a
 * client that does not announce `tp_r=1`, never answers or leaves gets. The app
 * (spec/integration/fixtures/requests.ts) is served by the runtime TWINPORT_TARGET names.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { connect as connectClient } from '../../lib/client/connect.js'
import type { Client } from '../../lib/client/client.js'
import { nextOf, WebSocketImpl } from '../support/client.js'
import { serve } from '../support/fixture-server.js'
import { eventually } from '../support/server.js'

interface Message {
  readonly event: string
  readonly data?: unknown
  readonly id?: unknown
  readonly seq?: number
}

const open = (port: number, query: string): Promise<{ ws: WebSocket; got: Message[] }> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/?${query}`)
    const got: Message[] = []
    ws.on('message', (data: Buffer) => got.push(JSON.parse(data.toString()) as Message))
    ws.on('error', () => undefined)
    ws.once('open', () => resolve({ ws, got }))
    ws.once('unexpected-response', () => reject(new Error('refused')))
  })

const Requests = suite('runServer :: server→client requests')

const clients: Client[] = []
const client = async (url: string, sessions: boolean): Promise<Client> => {
  const c = connectClient(url, { WebSocket: WebSocketImpl, sessions })
  clients.push(c)
  await nextOf(c, sessions ? 'session' : 'open')
  return c
}
Requests.after.each(() => {
  for (const c of clients.splice(0)) c.close()
})

for (const sessions of [true, false]) {
  Requests(`server.requestClient: twinport/client's handler answers; requestRoom gathers each answer (sessions: ${sessions})`, async () => {
    const { server, url } = await serve('requests', 'app')
    try {
      const a = await client(url, sessions)
      const b = await client(url, sessions)
      a.handle('confirm', (text) => `yes to ${String(text)}`)
      a.handle('vote', () => 'a')
      b.handle('vote', () => new Promise((resolve) => setTimeout(() => resolve('b'), 20)))
      const idA = (await a.request('join', 'r')) as number
      const idB = (await b.request('join', 'r')) as number
      assert.equal(await server.requestClient(idA, 'confirm', 'sure?'), { _tag: 'Answered', clientId: idA, data: 'yes to sure?' })
      assert.equal(await server.requestClient(idB, 'confirm', 'sure?'), { _tag: 'Unanswered', clientId: idB, error: 'no_handler' })
      assert.equal(await server.requestRoom('r', 'vote'), [
        { _tag: 'Answered', clientId: idA, data: 'a' },
        { _tag: 'Answered', clientId: idB, data: 'b' },
      ])
      // From a handler, the client asking its own client.
      assert.equal(await a.request('ask-me', 1000), { _tag: 'Answered', clientId: idA, data: 'yes to sure?' })
      assert.equal(await server.requestClient(9999, 'confirm'), { _tag: 'Unanswered', clientId: 9999, error: 'disconnected' })
    } finally {
      await server.close()
    }
  })
}

Requests('the wire: a request is an envelope with an id (numbered for a session); the ack settles it; a client without tp_r=1 is not asked', async () => {
  const { server, port } = await serve('requests', 'app')
  try {
    const plain = await open(port, 'tp_v=1')
    const asking = await open(port, 'tp_v=1&tp_r=1')
    await eventually(async () => (await server.clients()).length === 2, 3000, 'two clients')
    const [idPlain, idAsking] = (await server.clients()).map((c) => c.id) as [number, number]
    assert.equal(await server.requestClient(idPlain, 'confirm', 1), { _tag: 'Unanswered', clientId: idPlain, error: 'not_supported' })
    assert.equal(plain.got.map((m) => m.event), ['tp:session'])
    const answer = server.requestClient(idAsking, 'confirm', { n: 1 }, { timeoutMs: 3000 })
    await eventually(() => asking.got.length === 2, 3000, 'the request')
    const request = asking.got[1] as Message
    assert.equal({ ...request, id: 0 }, { event: 'confirm', data: { n: 1 }, id: 0, seq: 1 })
    assert.type(request.id, 'number')
    asking.ws.send(JSON.stringify({ event: 'ack', data: 'ok', id: request.id }))
    assert.equal(await answer, { _tag: 'Answered', clientId: idAsking, data: 'ok' })
    // A second answer to the same id is dropped, not dispatched as an event (no unknown_event).
    asking.ws.send(JSON.stringify({ event: 'ack', data: 'again', id: request.id }))
    asking.ws.send(JSON.stringify({ event: 'join', data: 'r', id: 'j' }))
    await eventually(() => asking.got.some((m) => m.id === 'j'), 3000, 'the join ack')
    assert.equal(asking.got.slice(2).map((m) => m.event), ['ack'])
    plain.ws.close()
    asking.ws.close()
  } finally {
    await server.close()
  }
})

Requests('a client that never answers times out; one that leaves for good is reported disconnected', async () => {
  const { server, port } = await serve('requests', 'app', { recovery: false })
  try {
    const silent = await open(port, 'tp_c=1&tp_r=1')
    await eventually(async () => (await server.clients()).length === 1, 3000, 'connected')
    const id = (await server.clients())[0]?.id as number
    assert.equal(await server.requestClient(id, 'confirm', null, { timeoutMs: 50 }), { _tag: 'Unanswered', clientId: id, error: 'timeout' })
    const pending = server.requestClient(id, 'confirm', null, { timeoutMs: 5000 })
    await eventually(() => silent.got.length === 2, 3000, 'the second request')
    silent.ws.close()
    assert.equal(await pending, { _tag: 'Unanswered', clientId: id, error: 'disconnected' })
  } finally {
    await server.close()
  }
})

Requests.run()

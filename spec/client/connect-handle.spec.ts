/**
 * Server requests as the client answers them (docs/protocol.md, "Server requests"): the
 * client announces `tp_r=1`, a server envelope with an `id` runs the handler of its event and
 * is answered with `ack` (the value) or `error` (`handler_error`, `no_handler`) carrying that
 * id; a numbered request replayed after a resume is answered once. Spoken by a raw `ws`
 * server, so the wire is checked.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { ClientOptions } from '../../lib/client/client-options.js'
import { connect } from '../../lib/client/connect.js'
import { nextOf, queryOf, type RawPeer, rawServer, WebSocketImpl } from '../support/client.js'
import { eventually } from '../support/server.js'

const test = suite('connect: server requests')
const FAST: ClientOptions = { WebSocket: WebSocketImpl, reconnect: { minDelay: 5, maxDelay: 5 }, sessions: false }

interface Asks {
  confirm: (text: string) => boolean
  slow: (ms: number) => Promise<number>
}

test('connect :: announces tp_r=1; a request runs its handler and is answered with an ack carrying its id', async () => {
  const server = await rawServer()
  const c = connect<never, never, Asks>(server.url, FAST)
  try {
    c.handle('confirm', (text) => text === 'sure?')
    c.handle('slow', (ms) => new Promise((resolve) => setTimeout(() => resolve(ms * 2), ms)))
    await nextOf(c, 'open')
    const peer = server.peers[0] as RawPeer
    assert.is(queryOf(peer).get('tp_r'), '1')
    peer.send({ event: 'slow', data: 20, id: 1 })
    peer.send({ event: 'confirm', data: 'sure?', id: 2 })
    await eventually(() => peer.texts.length === 2, 2000, 'two answers')
    assert.equal(peer.texts, ['{"event":"ack","data":true,"id":2}', '{"event":"ack","data":40,"id":1}'])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: no handler, a handler that throws or answers what JSON cannot hold: an error event with the reason', async () => {
  const server = await rawServer()
  const c = connect(server.url, FAST)
  try {
    c.handle('boom', () => {
      throw new Error('no')
    })
    c.handle('cycle', () => {
      const o: { self?: unknown } = {}
      o.self = o
      return o
    })
    const off = c.handle('gone', () => 1)
    off()
    await nextOf(c, 'open')
    const peer = server.peers[0] as RawPeer
    for (const [i, event] of ['nobody', 'boom', 'cycle', 'gone'].entries()) peer.send({ event, id: i + 1 })
    await eventually(() => peer.texts.length === 4, 2000, 'four answers')
    assert.equal(
      peer.received.map((m) => [m.id, m.event, (m.data as { error: string }).error]),
      [
        [1, 'error', 'no_handler'],
        [2, 'error', 'handler_error'],
        [3, 'error', 'handler_error'],
        [4, 'error', 'no_handler'],
      ],
    )
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: with sessions, a numbered request replayed after a resume is answered once', async () => {
  let calls = 0
  const server = await rawServer((peer) => peer.send({ event: 'tp:session', data: { sid: 's-1', recovered: server.peers.length > 1, heartbeat: 0 } }))
  const c = connect(server.url, { ...FAST, sessions: true })
  try {
    c.handle('confirm', () => (calls += 1))
    await nextOf(c, 'session')
    const first = server.peers[0] as RawPeer
    first.send({ event: 'confirm', data: null, id: 7, seq: 1 })
    await eventually(() => first.texts.length === 1, 2000, 'the answer')
    first.socket.terminate()
    await eventually(() => server.peers.length === 2, 2000, 'the resume')
    const second = server.peers[1] as RawPeer
    assert.is(queryOf(second).get('tp_last'), '1')
    second.send({ event: 'confirm', data: null, id: 7, seq: 1 }) // a replay overlapping what came before
    second.send({ event: 'confirm', data: null, id: 8, seq: 2 })
    await eventually(() => second.received.length === 1, 2000, 'one answer')
    assert.equal(second.received, [{ event: 'ack', data: 2, id: 8 }])
    assert.is(calls, 2)
  } finally {
    c.close()
    await server.close()
  }
})

test.run()

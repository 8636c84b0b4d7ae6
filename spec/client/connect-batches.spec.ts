/**
 * Batches (docs/protocol.md, "Batches") from the client's side, against a raw server: the
 * client asks with `tp_b`, and once the session message announces `batch` what one tick
 * sends leaves in one message, the envelopes separated by RS (split at the server's limit,
 * flushed before a close); a batch from the server is read envelope by envelope. Without the
 * announcement nothing changes.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import type { ClientOptions } from '../../lib/client/client-options.js'
import { nextOf, type RawPeer, rawServer, record, WebSocketImpl } from '../support/client.js'
import { eventually } from '../support/server.js'

const test = suite('connect: batches')

const OPTIONS: ClientOptions = { WebSocket: WebSocketImpl, reconnect: false }
const RS = '\x1e'
// What the raw server received, each message's envelopes (a batch has several).
const batchesOf = (peer: RawPeer): unknown[][] => peer.texts.map((t) => t.split(RS).map((e) => JSON.parse(e) as unknown))
const hello = (batch?: number): unknown => ({ event: 'tp:session', data: batch === undefined ? { sid: 's', recovered: false } : { sid: 's', recovered: false, batch } })

test('connect :: once the server announces batches, one tick sends one message; a batch of answers settles each request', async () => {
  const server = await rawServer((peer) => peer.send(hello(4096)))
  const c = connect(server.url, OPTIONS)
  try {
    await nextOf(c, 'session')
    const peer = server.peers[0] as RawPeer
    const news: unknown[] = []
    c.on('news', (n) => void news.push(n))
    c.emit('a', 1)
    const one = c.request('x', 1)
    const two = c.request('x', 2)
    await eventually(() => peer.texts.length > 0, 2000, 'the batch')
    assert.equal(batchesOf(peer), [
      [
        { event: 'a', data: 1 },
        { event: 'x', data: 1, id: 1 },
        { event: 'x', data: 2, id: 2 },
      ],
    ])
    peer.send(['{"event":"ack","id":1,"data":"one","seq":1}', '{"event":"ack","id":2,"data":"two","seq":2}', '{"event":"news","data":3,"seq":3}'].join(RS))
    assert.equal(await Promise.all([one, two]), ['one', 'two'])
    assert.equal(news, [3])
    assert.is(c.session?.lastSeq, 3)
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a batch is split where it would pass the server limit (3 bytes counted per UTF-16 unit)', async () => {
  // Each text is 22 characters: two with their separator are 45, counted 135 < 150; three are 68 (204).
  const server = await rawServer((peer) => peer.send(hello(150)))
  const c = connect(server.url, OPTIONS)
  try {
    await nextOf(c, 'session')
    for (const n of [1, 2, 3]) c.emit('e', n)
    const peer = server.peers[0] as RawPeer
    await eventually(() => peer.texts.length === 2, 2000, 'two messages')
    assert.equal(batchesOf(peer), [[{ event: 'e', data: 1 }, { event: 'e', data: 2 }], [{ event: 'e', data: 3 }]])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: close() sends what this tick batched before its close frame', async () => {
  const server = await rawServer((peer) => peer.send(hello(4096)))
  const c = connect(server.url, OPTIONS)
  try {
    await nextOf(c, 'session')
    c.emit('bye', 1)
    c.emit('bye', 2)
    c.close()
    const peer = server.peers[0] as RawPeer
    await eventually(() => peer.closeCode === 1000, 2000, 'the close')
    assert.equal(batchesOf(peer), [[{ event: 'bye', data: 1 }, { event: 'bye', data: 2 }]])
  } finally {
    await server.close()
  }
})

test('connect :: without the announcement every envelope is a message of its own', async () => {
  const server = await rawServer((peer) => peer.send(hello()))
  const c = connect(server.url, OPTIONS)
  try {
    await nextOf(c, 'session')
    c.emit('e', 1)
    c.emit('e', 2)
    const peer = server.peers[0] as RawPeer
    await eventually(() => peer.received.length === 2, 2000, 'two messages')
    assert.equal(peer.received, [{ event: 'e', data: 1 }, { event: 'e', data: 2 }])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a bad envelope in a batch is reported alone; the others are read; without the announcement RS is not JSON', async () => {
  const server = await rawServer((peer) => peer.send(hello(4096)))
  const c = connect(server.url, OPTIONS)
  try {
    await nextOf(c, 'session')
    const problems = record(c, ['error'])
    const answer = c.request('x', 1)
    ;(server.peers[0] as RawPeer).send(`{"event":""}${RS}{"event":"ack","id":1,"data":"ok"}`)
    assert.is(await answer, 'ok')
    assert.equal(problems, [['error', { _tag: 'InvalidMessage', message: 'bad "event"' }]])
  } finally {
    c.close()
    await server.close()
  }
  const plain = await rawServer((peer) => peer.send(hello()))
  const d = connect(plain.url, OPTIONS)
  try {
    await nextOf(d, 'session')
    const problem = nextOf(d, 'error')
    ;(plain.peers[0] as RawPeer).send(`{"event":"a"}${RS}{"event":"b"}`)
    assert.equal(await problem, { _tag: 'InvalidJson', message: 'not JSON' })
  } finally {
    d.close()
    await plain.close()
  }
})

test.run()

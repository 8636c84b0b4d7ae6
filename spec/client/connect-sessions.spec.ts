/**
 * Sessions, numbering and recovery (docs/protocol.md), from the client's side, against a raw
 * server that speaks the protocol: the upgrade query, the session message, numbered messages
 * without duplicates, a recovered reconnect that replays and answers a resent request twice
 * (the client keeps the first answer), a fresh session that numbers from 1, and the
 * heartbeat that tells a dead link.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { CLOSE_RECONNECTING, connect } from '../../lib/client/connect.js'
import type { ClientOptions } from '../../lib/client/client-options.js'
import { manualClock, nextOf, queryOf, type RawPeer, rawServer, record, WebSocketImpl } from '../support/client.js'
import { eventually } from '../support/server.js'

const test = suite('connect: sessions')

const FAST: ClientOptions = { WebSocket: WebSocketImpl, reconnect: { minDelay: 5, maxDelay: 5 } }
const session = (sid: string, recovered: boolean, heartbeat?: number): unknown => ({
  event: 'tp:session',
  data: heartbeat === undefined ? { sid, recovered } : { sid, recovered, heartbeat },
})

test('connect :: asks for a session with tp_v=1 and hears the session message', async () => {
  const server = await rawServer((peer) => peer.send(session('s-1', false)))
  const c = connect(server.url, FAST)
  try {
    const got = await nextOf(c, 'session')
    assert.equal(got, { id: 's-1', recovered: false })
    assert.equal(c.session, { id: 's-1', recovered: false, lastSeq: 0 })
    const peer = server.peers[0] as RawPeer
    assert.equal([...queryOf(peer).entries()], [['tp_v', '1'], ['tp_b', String(2 ** 24)], ['tp_r', '1']])
    assert.is(peer.url, '/?tp_v=1&tp_b=16777216&tp_r=1')
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: keeps the application query and path, adding the session parameters after', async () => {
  const server = await rawServer((peer) => peer.send(session('a b/c', false)))
  const c = connect(`${server.url}chat?room=a%20b#frag`, FAST)
  try {
    await nextOf(c, 'session')
    assert.is((server.peers[0] as RawPeer).url, '/chat?room=a%20b&tp_v=1&tp_b=16777216&tp_r=1')
    ;(server.peers[0] as RawPeer).socket.terminate()
    await nextOf(c, 'reconnected')
    assert.is((server.peers[1] as RawPeer).url, '/chat?room=a%20b&tp_v=1&tp_b=16777216&tp_sid=a%20b%2Fc&tp_last=0&tp_r=1')
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: sessions: false sends the URL as given, with tp_c=1 (refusals as close codes) and tp_r=1 (server requests) only', async () => {
  const server = await rawServer()
  const c = connect(`${server.url}x?y=1`, { ...FAST, sessions: false })
  try {
    await nextOf(c, 'open')
    assert.is((server.peers[0] as RawPeer).url, '/x?y=1&tp_c=1&tp_r=1')
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: offers the protocols option as Sec-WebSocket-Protocol', async () => {
  const server = await rawServer()
  const c = connect(server.url, { ...FAST, protocols: ['chat.v2', 'chat.v1'] })
  try {
    await nextOf(c, 'open')
    // ws joins with ",", browsers with ", ".
    assert.equal(String((server.peers[0] as RawPeer).request.headers['sec-websocket-protocol']).split(/,\s*/), ['chat.v2', 'chat.v1'])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: numbered messages are delivered once, in order; unnumbered ones always', async () => {
  const server = await rawServer((peer) => {
    peer.send(session('s', false))
    for (const [n, seq] of [
      [1, 1],
      [2, 2],
      [2, 2],
      [1, 1],
      [3, 3],
    ]) {
      peer.send({ event: 'n', data: n, seq })
    }
    peer.send({ event: 'n', data: 'plain' })
    peer.send({ event: 'n', data: 'plain' })
    peer.send({ event: 'done' })
  })
  const c = connect(server.url, FAST)
  try {
    const got: unknown[] = []
    c.on('n', (n) => void got.push(n))
    await nextOf(c, 'done')
    assert.equal(got, [1, 2, 3, 'plain', 'plain'])
    assert.equal(c.session, { id: 's', recovered: false, lastSeq: 3 })
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a recovered reconnect: replay without duplicates, the request resent with its id, the first answer kept', async () => {
  const server = await rawServer((peer) => {
    if (server.peers.length === 1) {
      peer.send(session('s-1', false))
      peer.send({ event: 'news', data: 'one', seq: 1 })
      peer.socket.on('message', () => {
        // The request reached the server; the connection dies before the answer goes out.
        peer.socket.terminate()
      })
      return
    }
    // Recovered: the answer computed meanwhile and a message sent during the outage are
    // replayed, after an overlap with what the client already had.
    peer.send(session('s-1', true))
    peer.send({ event: 'news', data: 'one', seq: 1 })
    peer.send({ event: 'ack', id: 1, data: 'first answer', seq: 2 })
    peer.send({ event: 'news', data: 'two', seq: 3 })
    // The resent request is a duplicate id of this session: the server answers it again.
    peer.socket.on('message', (data) => {
      const { id } = JSON.parse(data.toString()) as { id: number }
      peer.send({ event: 'ack', id, data: 'first answer', seq: 4 })
      peer.send({ event: 'done', seq: 5 })
    })
  })
  const c = connect(server.url, FAST)
  try {
    const news: unknown[] = []
    const log = record(c, ['session', 'reconnected', 'error'])
    c.on('news', (n) => void news.push(n))
    await nextOf(c, 'session')
    const answer = c.request('work', { job: 7 })
    assert.is(await answer, 'first answer')
    await nextOf(c, 'done')
    const second = server.peers[1] as RawPeer
    assert.equal(Object.fromEntries(queryOf(second)), { tp_v: '1', tp_b: '16777216', tp_sid: 's-1', tp_last: '1', tp_r: '1' })
    assert.equal(second.received, [{ event: 'work', data: { job: 7 }, id: 1 }])
    assert.equal(news, ['one', 'two'])
    // Some runtimes (Deno) report the dropped TCP connection as a socket error: not a problem
    // of the protocol.
    assert.equal(
      log.filter(([, p]) => (p as { _tag?: string })._tag !== 'SocketError'),
      [
        ['session', { id: 's-1', recovered: false }],
        ['reconnected', { attempt: 1 }],
        ['session', { id: 's-1', recovered: true }],
      ],
    )
    assert.equal(c.session, { id: 's-1', recovered: true, lastSeq: 5 })
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a new session (recovered: false) numbers from 1 again', async () => {
  const server = await rawServer((peer) => {
    const n = server.peers.length
    peer.send(session(`s-${n}`, false))
    peer.send({ event: 'news', data: `conn ${n} first`, seq: 1 })
    peer.send({ event: 'news', data: `conn ${n} second`, seq: 2 })
  })
  const c = connect(server.url, FAST)
  try {
    const news: unknown[] = []
    c.on('news', (n) => void news.push(n))
    await eventually(() => news.length === 2)
    ;(server.peers[0] as RawPeer).socket.terminate()
    await eventually(() => news.length === 4)
    assert.equal(news, ['conn 1 first', 'conn 1 second', 'conn 2 first', 'conn 2 second'])
    assert.equal(Object.fromEntries(queryOf(server.peers[1] as RawPeer)), { tp_v: '1', tp_b: '16777216', tp_sid: 's-1', tp_last: '2', tp_r: '1' })
    assert.equal(c.session, { id: 's-2', recovered: false, lastSeq: 2 })
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a resume refused: the session event carries the reason and a resync event follows (an older server: unknown_session)', async () => {
  const reasons = [undefined, 'gap', 'unavailable', 'nonsense', undefined]
  const server = await rawServer((peer) => {
    const n = server.peers.length
    const resync = reasons[n - 1]
    peer.send({ event: 'tp:session', data: resync === undefined ? { sid: `s-${n}`, recovered: false } : { sid: `s-${n}`, recovered: false, resync } })
  })
  const c = connect(server.url, FAST)
  try {
    const events = record(c, ['session', 'resync'])
    await nextOf(c, 'session')
    for (let i = 0; i < 4; i++) {
      ;(server.peers[i] as RawPeer).socket.terminate()
      await eventually(() => server.peers.length === i + 2 && events.filter(([name]) => name === 'resync').length === i + 1)
    }
    assert.equal(
      events.filter(([name]) => name === 'resync'),
      [
        ['resync', { reason: 'gap', previousId: 's-1' }],
        ['resync', { reason: 'unavailable', previousId: 's-2' }],
        ['resync', { reason: 'unknown_session', previousId: 's-3' }],
        ['resync', { reason: 'unknown_session', previousId: 's-4' }],
      ],
    )
    assert.equal(events[1], ['session', { id: 's-2', recovered: false, resync: 'gap' }])
    assert.equal(events[0], ['session', { id: 's-1', recovered: false }], 'a first session is no resync')
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: no heartbeat for heartbeat + grace ms: the link is dropped (4000) and the client reconnects', async () => {
  const clock = manualClock()
  const server = await rawServer((peer) => peer.send(session('s', false, 1000)))
  const c = connect(server.url, { ...FAST, clock, heartbeatGrace: 500, random: () => 0 })
  try {
    const log = record(c, ['close', 'reconnecting', 'reconnected'])
    let heard = 0
    c.on('tp:heartbeat', () => void (heard += 1))
    await nextOf(c, 'session')
    const peer = server.peers[0] as RawPeer
    clock.advance(1000)
    peer.send({ event: 'tp:heartbeat' })
    peer.send({ event: 'mark' })
    await nextOf(c, 'mark')
    clock.advance(600) // 500 ms after the heartbeat: alive
    assert.equal([c.state, log], ['open', []])
    clock.advance(900) // 1500 ms after it: dead
    assert.equal(log, [
      ['close', { code: 1006, reason: 'no heartbeat in 1500 ms', reconnect: true }],
      ['reconnecting', { attempt: 1, delay: 5 }],
    ])
    await eventually(() => peer.closeCode !== undefined)
    assert.is(peer.closeCode, CLOSE_RECONNECTING)
    clock.advance(5)
    await nextOf(c, 'reconnected')
    assert.is(server.peers.length, 2)
    assert.is(heard, 0)
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: any message counts as life; without an announced heartbeat there is no watch', async () => {
  const clock = manualClock()
  const server = await rawServer((peer) => {
    peer.send(session('s', false, 1000))
    peer.socket.on('message', () => peer.send({ event: 'pong' }))
  })
  const c = connect(server.url, { ...FAST, clock, heartbeatGrace: 0 })
  try {
    await nextOf(c, 'session')
    for (let i = 0; i < 5; i++) {
      clock.advance(900)
      const pong = nextOf(c, 'pong')
      c.emit('ping')
      await pong
    }
    assert.is(c.state, 'open')
    // A session without a heartbeat turns the watch off.
    const again = nextOf(c, 'session')
    ;(server.peers[0] as RawPeer).send(session('s', true))
    await again
    clock.advance(1e9)
    assert.is(c.state, 'open')
  } finally {
    c.close()
    await server.close()
  }
})

test.run()

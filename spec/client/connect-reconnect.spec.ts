/**
 * Reconnection: after the server drops a client, after a restart on the same port, the
 * close codes that are never retried, the attempt limit, and a close while reconnecting.
 * Real servers: twinport, and a raw `ws` server where a close code must be chosen.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import type { ClientOptions } from '../../lib/client/client-options.js'
import type { RequestError } from '../../lib/client/request-error.js'
import { type AnyClient, nextOf, rawServer, record, WebSocketImpl } from '../support/client.js'
import { clientApp } from '../support/client-app.js'
import { eventually, startServer } from '../support/server.js'

const test = suite('connect: reconnect')

const FAST: ClientOptions = { WebSocket: WebSocketImpl, reconnect: { minDelay: 5, maxDelay: 20 }, random: () => 0 }

test('connect :: comes back after the server disconnects it (1000), with backoff events', async () => {
  const { table } = clientApp()
  const { server, port } = await startServer({ routes: table })
  const c = connect(`ws://127.0.0.1:${port}/`, FAST)
  try {
    const log = record(c, ['open', 'close', 'reconnecting', 'reconnected'])
    await nextOf(c, 'open')
    const first = await c.request('whoami')
    server.disconnectClient(first as number)
    await nextOf(c, 'reconnected')
    assert.is(c.state, 'open')
    assert.equal(log, [
      ['open', undefined],
      ['close', { code: 1000, reason: '', reconnect: true }],
      ['reconnecting', { attempt: 1, delay: 5 }],
      ['reconnected', { attempt: 1 }],
    ])
    assert.is.not(await c.request('whoami'), first)
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: survives a server restart on the same port; what was sent offline arrives once, in order', async () => {
  const first = clientApp()
  const started = await startServer({ routes: first.table })
  const port = started.port
  const c = connect(`ws://127.0.0.1:${port}/`, FAST)
  let second: Awaited<ReturnType<typeof startServer>> | undefined
  try {
    await nextOf(c, 'open')
    await c.request('record', 'before')
    const closed = nextOf(c, 'close')
    await started.server.close()
    assert.equal(await closed, { code: 1001, reason: 'server shutting down', reconnect: true })
    assert.is.not(c.state, 'open')
    // While the server is down: queued, in order, requests too.
    assert.is(c.emit('record', 'offline 1'), true)
    const answered = c.request('echo', 'offline request')
    assert.is(c.emit('record', 'offline 2'), true)
    assert.is(c.queued, 3)
    assert.is(c.state, 'reconnecting')
    const app = clientApp()
    second = await startServer({ routes: app.table, port })
    await nextOf(c, 'reconnected', 5000)
    assert.is(await answered, 'offline request')
    await c.request('echo', 'sync')
    assert.equal(app.state.recorded, ['offline 1', 'offline 2'])
    assert.equal(first.state.recorded, ['before'])
    assert.is(c.queued, 0)
  } finally {
    c.close()
    await second?.server.close()
  }
})

test('connect :: a request sent before a drop is sent again with the same id', async () => {
  let peers = 0
  const server = await rawServer((peer) => {
    peers += 1
    peer.socket.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as { event: string; id?: number }
      // The first connection drops the request unanswered; the second answers it.
      if (peers === 1) peer.socket.terminate()
      else peer.send({ event: 'ack', id: msg.id, data: `answered ${msg.id}` })
    })
  })
  const c = connect(server.url, { ...FAST, sessions: false })
  try {
    await nextOf(c, 'open')
    const answer = c.request('work', { n: 1 })
    assert.is(await answer, 'answered 1')
    assert.equal(
      server.peers.map((p) => p.received),
      [[{ event: 'work', data: { n: 1 }, id: 1 }], [{ event: 'work', data: { n: 1 }, id: 1 }]],
    )
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a request with resend: false fails with Closed on a drop instead', async () => {
  const server = await rawServer((peer) => peer.socket.on('message', () => peer.socket.close(1011, 'oops')))
  const c = connect(server.url, FAST)
  try {
    await nextOf(c, 'open')
    const err = (await c.request('work', 1, { resend: false }).catch((e: unknown) => e)) as RequestError
    assert.equal(err.failure, { _tag: 'Closed', code: 1011, reason: 'oops' })
  } finally {
    c.close()
    await server.close()
  }
})

for (const [code, reason] of [
  [1008, 'policy violation'],
  [1003, 'unsupported data'],
  [4000, 'app says no'],
  [4999, 'app says no'],
] as const) {
  test(`connect :: never comes back after close code ${code}`, async () => {
    const server = await rawServer((peer) => setTimeout(() => peer.socket.close(code, reason), 5))
    const c = connect(server.url, FAST)
    try {
      const log = record(c, ['close', 'reconnecting'])
      const pending = c.request('anything').catch((e: unknown) => e)
      await eventually(() => c.state === 'closed')
      assert.equal(log, [['close', { code, reason, reconnect: false }]])
      assert.equal(((await pending) as RequestError).failure, { _tag: 'Closed', code, reason })
      assert.is(server.peers.length, 1)
    } finally {
      await server.close()
    }
  })
}

test('connect :: shouldReconnect decides instead of the default rule', async () => {
  const seen: [number, string][] = []
  const server = await rawServer((peer) => {
    if (server.peers.length === 1) setTimeout(() => peer.socket.close(4001, 'try again'), 5)
  })
  const c = connect(server.url, {
    ...FAST,
    reconnect: {
      minDelay: 5,
      shouldReconnect: (code, reason) => {
        seen.push([code, reason])
        return code === 4001
      },
    },
  })
  try {
    await nextOf(c, 'reconnected')
    assert.equal(seen, [[4001, 'try again']])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a shouldReconnect that throws is reported and means no', async () => {
  const server = await rawServer((peer) => setTimeout(() => peer.socket.close(1000), 5))
  const c = connect(server.url, {
    ...FAST,
    reconnect: {
      shouldReconnect: () => {
        throw new Error('bug')
      },
    },
  })
  try {
    const problems = record(c, ['error'])
    await eventually(() => c.state === 'closed')
    assert.equal(
      problems.map(([, p]) => (p as { message: string }).message),
      ['listener threw'],
    )
  } finally {
    await server.close()
  }
})

test('connect :: gives up after maxAttempts failed attempts in a row', async () => {
  const server = await rawServer()
  const port = server.port
  const c = connect(server.url, { ...FAST, reconnect: { minDelay: 5, maxAttempts: 2 } })
  const log = record(c, ['close', 'reconnecting'])
  await nextOf(c, 'open')
  await server.close()
  await eventually(() => c.state === 'closed', 5000)
  assert.equal(
    log.map(([event, p]) => [event, event === 'close' ? (p as { reconnect: boolean }).reconnect : (p as { attempt: number }).attempt]),
    [
      ['close', true],
      ['reconnecting', 1],
      ['close', true],
      ['reconnecting', 2],
      ['close', false],
    ],
  )
  assert.ok(port > 0)
})

test('connect :: reconnect: false closes for good on the first drop', async () => {
  const server = await rawServer((peer) => setTimeout(() => peer.socket.terminate(), 5))
  const c = connect(server.url, { WebSocket: WebSocketImpl, reconnect: false })
  try {
    const log = record(c, ['close', 'reconnecting'])
    await eventually(() => c.state === 'closed')
    assert.equal(log, [['close', { code: 1006, reason: '', reconnect: false }]])
  } finally {
    await server.close()
  }
})

test('connect :: an unreachable server is retried; errors are reported, nothing is thrown', async () => {
  const probe = await rawServer()
  const port = probe.port
  await probe.close()
  const c: AnyClient = connect(`ws://127.0.0.1:${port}/`, FAST)
  const problems = record(c, ['error'])
  await nextOf(c, 'reconnecting')
  const server = await rawServer(() => undefined, { port })
  try {
    await nextOf(c, 'open', 5000)
    assert.ok(problems.some(([, p]) => (p as { _tag: string })._tag === 'SocketError'))
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: close while waiting to reconnect stops every attempt', async () => {
  const server = await rawServer((peer) => setTimeout(() => peer.socket.terminate(), 5))
  const c = connect(server.url, { ...FAST, reconnect: { minDelay: 30, maxDelay: 30 } })
  try {
    await nextOf(c, 'reconnecting')
    c.close()
    assert.is(c.state, 'closed')
    await new Promise((resolve) => setTimeout(resolve, 80))
    assert.is(server.peers.length, 1)
  } finally {
    await server.close()
  }
})

test('connect :: a close listener may close the client; no attempt follows', async () => {
  const server = await rawServer((peer) => setTimeout(() => peer.socket.terminate(), 5))
  const c = connect(server.url, FAST)
  try {
    c.on('close', () => c.close())
    const log = record(c, ['reconnecting'])
    await eventually(() => c.state === 'closed')
    assert.equal(log, [])
  } finally {
    await server.close()
  }
})

test.run()

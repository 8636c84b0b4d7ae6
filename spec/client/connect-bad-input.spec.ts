/**
 * Bad input from the server: malformed JSON, JSON that is no envelope, an ack nobody waits
 * for, an error event for an unknown id, an oversize message, a binary frame. Each is an
 * `error` event with a clear reason, nothing throws, and the client stays usable. The server
 * is a real twinport server with a raw `onMessage` route that answers each `say` with the
 * text it carries (or bytes), and every request with a well-formed ack.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import type { ClientOptions } from '../../lib/client/client-options.js'
import type { ClientProblem } from '../../lib/client/client-problem.js'
import { onMessage, rawBinary, rawText } from '../../lib/index.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { type AnyClient, nextOf, record, WebSocketImpl } from '../support/client.js'
import { startServer } from '../support/server.js'

interface Ctx {
  server: ServerHandle
  url: string
}

const test = suite<Ctx>('connect: bad input')

// `say` answers its data verbatim (a string as text, an array of bytes as binary); any other
// message with an id is acknowledged as a twinport server would.
const misbehaving = onMessage((message) => {
  if (message._tag !== 'Text') return undefined
  const msg = JSON.parse(message.text) as { event: string; data: unknown; id?: number }
  if (msg.event === 'say') return Array.isArray(msg.data) ? rawBinary(new Uint8Array(msg.data as number[])) : rawText(String(msg.data))
  return msg.id === undefined ? undefined : rawText(JSON.stringify({ event: 'ack', id: msg.id, data: msg.data }))
})

test.before.each(async (ctx) => {
  const { server, port } = await startServer({ routes: [misbehaving] })
  Object.assign(ctx, { server, url: `ws://127.0.0.1:${port}/` })
})

test.after.each(async (ctx) => {
  await ctx.server.close()
})

const opened = async (ctx: Ctx, options: ClientOptions = {}): Promise<AnyClient> => {
  const c = connect(ctx.url, { WebSocket: WebSocketImpl, ...options })
  await nextOf(c, 'open')
  return c
}

// Makes the server send `text` (or bytes), and answers the problem the client reports.
const provoke = async (c: AnyClient, data: string | number[]): Promise<ClientProblem> => {
  const problem = nextOf<ClientProblem>(c, 'error')
  c.emit('say', data)
  return problem
}

// After a problem: the client still answers requests, and nothing else was reported.
const stillUsable = async (c: AnyClient, problems: [string, unknown][], count: number): Promise<void> => {
  assert.is(c.state, 'open')
  assert.equal(await c.request('ping', { n: 1 }), { n: 1 })
  assert.is(problems.length, count)
}

test('connect :: malformed JSON is InvalidJson', async (ctx) => {
  const c = await opened(ctx)
  const problems = record(c, ['error'])
  try {
    assert.equal(await provoke(c, '{"event":"x",'), { _tag: 'InvalidJson', message: 'message is not JSON' })
    await stillUsable(c, problems, 1)
  } finally {
    c.close()
  }
})

test('connect :: JSON that is not an envelope is InvalidMessage naming the fault', async (ctx) => {
  const c = await opened(ctx)
  const problems = record(c, ['error'])
  try {
    assert.equal(await provoke(c, '[1,2,3]'), { _tag: 'InvalidMessage', message: 'not an event envelope: not an object' })
    assert.equal(await provoke(c, '{"data":1}'), { _tag: 'InvalidMessage', message: 'not an event envelope: bad "event"' })
    assert.equal(await provoke(c, '{"event":"ack","id":{}}'), { _tag: 'InvalidMessage', message: 'not an event envelope: bad "id"' })
    assert.equal(await provoke(c, '{"event":"ack","data":1}'), { _tag: 'InvalidMessage', message: 'not an event envelope: ack without "id"' })
    assert.equal(await provoke(c, '{"event":"m","seq":-3}'), { _tag: 'InvalidMessage', message: 'not an event envelope: bad "seq"' })
    await stillUsable(c, problems, 5)
  } finally {
    c.close()
  }
})

test('connect :: an ack for an unknown id is UnknownAck', async (ctx) => {
  const c = await opened(ctx)
  const problems = record(c, ['error'])
  try {
    assert.equal(await provoke(c, '{"event":"ack","id":999,"data":null}'), { _tag: 'UnknownAck', id: 999, message: 'ack for unknown id 999' })
    // A string id never matches the client's number ids.
    assert.equal(await provoke(c, '{"event":"ack","id":"1","data":null}'), { _tag: 'UnknownAck', id: '1', message: 'ack for unknown id "1"' })
    await stillUsable(c, problems, 2)
  } finally {
    c.close()
  }
})

test('connect :: an error event for an unknown id is ServerError with that id', async (ctx) => {
  const c = await opened(ctx)
  const problems = record(c, ['error'])
  try {
    assert.equal(await provoke(c, '{"event":"error","data":{"error":"handler_error","message":"the handler of \\"x\\" failed"},"id":77}'), {
      _tag: 'ServerError',
      code: 'handler_error',
      id: 77,
      message: 'server error handler_error: the handler of "x" failed',
    })
    assert.equal(await provoke(c, '{"event":"error","data":"not an object"}'), { _tag: 'ServerError', code: 'unknown', message: 'server error unknown: ' })
    await stillUsable(c, problems, 2)
  } finally {
    c.close()
  }
})

test('connect :: a message over maxMessageBytes is MessageTooBig and not parsed', async (ctx) => {
  const c = await opened(ctx, { maxMessageBytes: 64 })
  const problems = record(c, ['error'])
  try {
    const big = JSON.stringify({ event: 'said', data: 'x'.repeat(100) })
    let delivered = 0
    c.on('said', () => void (delivered += 1))
    assert.equal(await provoke(c, big), { _tag: 'MessageTooBig', size: big.length, limit: 64, message: 'message over maxMessageBytes 64' })
    assert.is(delivered, 0)
    await stillUsable(c, problems, 1)
  } finally {
    c.close()
  }
})

test('connect :: a binary frame is BinaryMessage with its size', async (ctx) => {
  const c = await opened(ctx)
  const problems = record(c, ['error'])
  try {
    assert.equal(await provoke(c, [0x7b, 0x7d, 0x00]), { _tag: 'BinaryMessage', size: 3, message: 'binary message of 3 bytes' })
    await stillUsable(c, problems, 1)
  } finally {
    c.close()
  }
})

test('connect :: a malformed session message is InvalidMessage and changes nothing', async (ctx) => {
  const c = await opened(ctx)
  const problems = record(c, ['error'])
  const before = c.session // the server's real session: a malformed one must not replace it
  try {
    assert.equal(await provoke(c, '{"event":"tp:session","data":{"sid":"","recovered":true}}'), { _tag: 'InvalidMessage', message: 'bad tp:session' })
    assert.equal(await provoke(c, '{"event":"tp:session","data":{"sid":"a"}}'), { _tag: 'InvalidMessage', message: 'bad tp:session' })
    assert.equal(await provoke(c, '{"event":"tp:session"}'), { _tag: 'InvalidMessage', message: 'bad tp:session' })
    assert.equal(c.session, before)
    await stillUsable(c, problems, 3)
  } finally {
    c.close()
  }
})

test('connect :: nothing thrown reaches the caller: a burst of every bad kind, then a request', async (ctx) => {
  const c = await opened(ctx, { maxMessageBytes: 200 })
  const problems = record(c, ['error'])
  try {
    const bad = ['', 'nul', '{"event":1}', '{"event":"ack","id":5}', 'x'.repeat(300)]
    for (const text of bad) c.emit('say', text)
    c.emit('say', [1, 2])
    await stillUsable(c, problems, 6)
    assert.equal(
      problems.map(([, p]) => (p as ClientProblem)._tag),
      ['InvalidJson', 'InvalidJson', 'InvalidMessage', 'UnknownAck', 'MessageTooBig', 'BinaryMessage'],
    )
  } finally {
    c.close()
  }
})

test.run()

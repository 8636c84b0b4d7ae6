/**
 * The slow-consumer rule on a real socket (docs/decisions.md "Slow consumers"): a client
 * that reads is never dropped because a small frame joined the queue behind a large echo;
 * a client that stops reading is, after a close frame 1008 queued behind its backlog. The
 * echo app (spec/integration/fixtures/raw.ts) is served by the runtime TWINPORT_TARGET names; the
 * clients are Node's raw sockets.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import { serve } from '../support/fixture-server.js'
import { closeCodeOf, eventually, rawWebSocket } from '../support/server.js'

const MASK = new Uint8Array([9, 8, 7, 6])
const limits = { maxMessage: 4 << 20, maxFramePayload: 4 << 20, maxSendBuffer: 256 << 10 }

const Backpressure = suite('runServer :: slow consumers')

Backpressure('a limit-sized echo, then a pong and events behind it while the client reads: nobody is dropped', async () => {
  const { server, port } = await serve('raw', 'countedEcho', { limits })
  try {
    const c = await rawWebSocket(port)
    c.socket.pause() // the client reads at its own pace: the whole echo waits in the server's backlog
    const big = new Uint8Array(limits.maxMessage).map((_, i) => i * 7)
    // A ping, then the message, in one write: once the server has counted the message, the pong
    // and the echo are both queued, so the events broadcast after that wait behind them.
    c.write(Buffer.concat([encodeFrameBytes({ opcode: OPCODE.PING, payload: new Uint8Array([1]), fin: true }, MASK), encodeFrameBytes({ opcode: OPCODE.BINARY, payload: big, fin: true }, MASK)]))
    const counted = async (): Promise<boolean> => {
      const [client] = await server.clients()
      return client !== undefined && (await server.getClientData(client.id, 'received')) === 1
    }
    await eventually(counted, 5000, 'the server to read the whole message')
    await server.batch([0, 1, 2, 3, 4].map((i) => ['broadcast', 'tick', i])) // events join the queue while the echo drains
    c.socket.resume()
    await c.until(() => c.frames().length >= 7, 5000)
    const frames = c.frames()
    assert.is(frames[0]?.opcode, OPCODE.PONG)
    assert.is(frames[1]?.opcode, OPCODE.BINARY)
    assert.ok(Buffer.from(frames[1]?.payload ?? []).equals(Buffer.from(big)), 'the echo arrives intact')
    assert.equal(frames.slice(2).map((f) => JSON.parse(Buffer.from(f.payload).toString())), [0, 1, 2, 3, 4].map((data) => ({ event: 'tick', data })))
    assert.not.ok((await server.records()).some((r) => r.message.startsWith('slow consumer')), 'no slow-consumer verdict')
    // Still open and usable.
    c.write(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('still here'), fin: true }, MASK))
    await c.until(() => c.frames().length === 8)
    assert.is(Buffer.from(c.frames()[7]?.payload ?? []).toString(), 'still here')
    c.socket.destroy()
  } finally {
    await server.close()
  }
})

Backpressure('a client that stops reading is dropped, with a close 1008 queued behind its backlog, and others keep receiving', async () => {
  const { server, port } = await serve('raw', 'plainEcho', { limits })
  try {
    const records = await server.records() // the same array, growing as the server logs
    const stuck = await rawWebSocket(port)
    const reader = await rawWebSocket(port)
    stuck.socket.pause()
    const chunk = 'x'.repeat(64 << 10)
    const payload = JSON.stringify({ event: 'chunk', data: chunk }).length
    const frameSize = payload + (payload < 126 ? 2 : payload < 65536 ? 4 : 10)
    const handshake = reader.received().length
    let sent = 0
    // Bounded: the verdict must come long before 64 MiB are queued. The reader keeps up: each
    // broadcast waits until it has read the one before (runtimes whose writes are
    // asynchronous hold a frame in their own backlog until the write completes).
    while (!records.some((r) => r.message.startsWith('slow consumer')) && sent < 1024) {
      await server.broadcast('chunk', chunk)
      sent += 1
      await reader.until((d) => d.length >= handshake + sent * frameSize, 5000)
    }
    const verdicts = records.filter((r) => r.message.startsWith('slow consumer'))
    assert.is(verdicts.length, 1, 'one slow-consumer verdict')
    assert.is(verdicts[0]?.level, 'warning')
    // The reader got everything the stuck client missed and more.
    await server.broadcast('after', true)
    await reader.until(() => reader.frames().some((f) => Buffer.from(f.payload).toString().includes('"after"')), 5000)
    assert.is(reader.frames().length, sent + 1)
    // The stuck client, reading at last, finds its backlog and then the reason.
    stuck.socket.resume()
    await stuck.closed(5000)
    const frames = stuck.frames()
    const last = frames[frames.length - 1]
    assert.is(last?.opcode, OPCODE.CLOSE)
    assert.is(closeCodeOf(last), 1008)
    assert.ok(frames.length < sent + 1, 'nothing was queued after the verdict')
    await eventually(async () => (await server.clients()).length === 1, 2000, 'the server to forget the stuck client')
    reader.socket.destroy()
  } finally {
    await server.close()
  }
})

Backpressure.run()

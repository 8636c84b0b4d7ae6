import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { rawBinary, rawText } from '../../lib/core/route/raw-message.js'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { onMessage } from '../../lib/core/route/on-message.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import { delay, eventually, openClient, rawWebSocket, startServer } from '../support/server.js'

const MASK = new Uint8Array([9, 8, 7, 6])

const echo = [
  onConnect((ctx) => {
    if (ctx.request.path === '/room') ctx.joinRoom('r')
  }),
  onMessage((message, ctx) => {
    if (ctx.request.path !== '/room') return message
    ctx.broadcastRaw(message, { room: 'r' })
    return undefined
  }),
]

const Raw = suite('runServer :: raw messages')

Raw('text and binary messages are echoed verbatim, up to 16 MiB', async () => {
  const { server, port } = await startServer({ routes: echo })
  try {
    const c = await openClient(port, '/', { maxPayload: 32 * 1024 * 1024 })
    c.ws.send('héllo')
    assert.is(await c.next(), 'héllo')
    const big = Buffer.alloc(16 * 1024 * 1024, 7)
    big[12345] = 1
    const got = new Promise<Buffer>((resolve) => c.ws.once('message', (d: Buffer) => resolve(d)))
    c.ws.send(big)
    assert.ok((await got).equals(big))
    c.ws.close()
  } finally {
    await server.close()
  }
})

Raw('a frame split across TCP writes is assembled once its bytes are there', async () => {
  const { server, port } = await startServer({ routes: echo })
  try {
    const raw = await rawWebSocket(port)
    const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new Uint8Array(300).fill(65) }, MASK)
    for (const piece of [frame.subarray(0, 1), frame.subarray(1, 3), frame.subarray(3, 150), frame.subarray(150)]) {
      raw.write(piece)
      await delay(5)
    }
    await raw.until(() => raw.frames().length === 1)
    assert.is(raw.frames()[0]?.payload.length, 300)
    raw.socket.destroy()
  } finally {
    await server.close()
  }
})

Raw('an echoed text is the same bytes: one frame, fragments, a BOM, 4-byte characters, and a reply of another text', async () => {
  const routes = [onMessage((message) => (message._tag === 'Text' && message.text === 'swap' ? rawText('swapped') : message))]
  const { server, port } = await startServer({ routes })
  try {
    const raw = await rawWebSocket(port)
    const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
    const tricky = utf8('\uFEFFé€😀 end')
    raw.write(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: tricky }, MASK))
    raw.write(encodeFrameBytes({ opcode: OPCODE.TEXT, fin: false, payload: tricky.subarray(0, 5) }, MASK))
    raw.write(encodeFrameBytes({ opcode: OPCODE.CONTINUATION, payload: tricky.subarray(5) }, MASK))
    raw.write(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: utf8('swap') }, MASK))
    await raw.until(() => raw.frames().length === 3)
    const [one, joined, swapped] = raw.frames()
    assert.equal([one?.opcode, joined?.opcode, swapped?.opcode], [OPCODE.TEXT, OPCODE.TEXT, OPCODE.TEXT])
    assert.equal(Array.from(one?.payload ?? []), Array.from(tricky))
    assert.equal(Array.from(joined?.payload ?? []), Array.from(tricky))
    assert.is(new TextDecoder().decode(swapped?.payload), 'swapped')
    raw.socket.destroy()
  } finally {
    await server.close()
  }
})

Raw('a raw broadcast reaches the room, the sender included; the handle sends raw too', async () => {
  const { server, port } = await startServer({ routes: echo, debug: true })
  try {
    const a = await openClient(port, '/room')
    const b = await openClient(port, '/room')
    a.ws.send('to the room')
    assert.is(await a.next(), 'to the room')
    assert.is(await b.next(), 'to the room')
    const ids = server.clients().map((c) => c.id)
    assert.is(server.broadcastRaw(rawBinary(new Uint8Array([1, 2])), { room: 'r' }), 2)
    assert.is(await a.next(), '\u0001\u0002')
    assert.is(await b.next(), '\u0001\u0002')
    assert.ok(server.sendRaw(ids[0] ?? -1, rawText('just you')))
    assert.is(await a.next(), 'just you')
    assert.not.ok(server.sendRaw(424242, rawText('nobody')))
    server.log('debug line from the handle')
    assert.ok(server.logger !== undefined)
    a.ws.close()
    b.ws.close()
  } finally {
    await server.close()
  }
})

Raw('namespaces: a client moved to another namespace gets that namespace\'s broadcasts only', async () => {
  const { server, port } = await startServer({ routes: echo })
  try {
    const a = await openClient(port)
    const b = await openClient(port)
    const [idA] = server.clients().map((c) => c.id)
    server.joinNamespace(idA ?? -1, '/admin')
    server.joinNamespace(999, '/admin') // not a WebSocket client: ignored
    assert.is(server.broadcast('hi', 1, { namespace: '/admin' }), 1)
    assert.equal(await a.nextJson(), { event: 'hi', data: 1 })
    assert.is(server.broadcast('all', 2, { namespace: '/' }), 1)
    assert.equal(await b.nextJson(), { event: 'all', data: 2 })
    assert.is(server.broadcast('nobody', 3, { namespace: '/none' }), 0)
    a.ws.close()
    b.ws.close()
    await eventually(() => server.namespaces.clientsInNamespace('/admin').length === 0)
  } finally {
    await server.close()
  }
})

Raw('graceful close: an idle keep-alive HTTP connection is closed and close() resolves', async () => {
  const { server, url } = await startServer({ routes: echo })
  const res = await fetch(`${url}/nope`)
  assert.is(res.status, 404)
  await res.text()
  await server.close()
  await server.close() // twice is harmless
})

Raw.run()

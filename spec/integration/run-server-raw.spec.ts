/**
 * Raw messages (no envelope) end to end: verbatim echo up to 16 MiB, frames split across
 * writes, raw broadcasts and the handle's raw sends, namespaces, graceful close. The server
 * is an app of spec/integration/fixtures/raw.ts, served by the runtime TWINPORT_TARGET names; the
 * clients are Node's `ws`, `fetch` and raw sockets.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { rawBinary, rawText } from '../../lib/core/route/raw-message.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, openClient, rawWebSocket } from '../support/server.js'

const MASK = new Uint8Array([9, 8, 7, 6])

const Raw = suite('runServer :: raw messages')

Raw('text and binary messages are echoed verbatim, up to 16 MiB', async () => {
  const { server, port } = await serve('raw', 'echo')
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

Raw('a handler gets every binary message as a plain Uint8Array: small, large, compressed', async () => {
  const { server, port } = await serve('raw', 'binaryClass', { perMessageDeflate: true })
  try {
    const plain = await openClient(port, '/', { perMessageDeflate: false })
    // 3 bytes (the small-frame path), then 200 (the general decoder).
    for (const size of [3, 200]) {
      plain.ws.send(Buffer.alloc(size, 7))
      assert.is(await plain.next(), 'Uint8Array', `${size} bytes`)
    }
    plain.ws.close()
    const deflated = await openClient(port, '/', { perMessageDeflate: { threshold: 0 } })
    for (const size of [3, 2000]) {
      deflated.ws.send(Buffer.alloc(size, 7), { compress: true })
      assert.is(await deflated.next(), 'Uint8Array', `${size} bytes, compressed`)
    }
    deflated.ws.close()
  } finally {
    await server.close()
  }
})

Raw('a frame split across TCP writes is assembled once its bytes are there', async () => {
  const { server, port } = await serve('raw', 'echo')
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
  const { server, port } = await serve('raw', 'swapEcho')
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
  const { server, port } = await serve('raw', 'echo', { debug: true })
  try {
    const a = await openClient(port, '/room')
    const b = await openClient(port, '/room')
    a.ws.send('to the room')
    assert.is(await a.next(), 'to the room')
    assert.is(await b.next(), 'to the room')
    const ids = (await server.clients()).map((c) => c.id)
    assert.is(await server.broadcastRaw(rawBinary(new Uint8Array([1, 2])), { room: 'r' }), 2)
    assert.is(await a.next(), '\u0001\u0002')
    assert.is(await b.next(), '\u0001\u0002')
    assert.ok(await server.sendRaw(ids[0] ?? -1, rawText('just you')))
    assert.is(await a.next(), 'just you')
    assert.not.ok(await server.sendRaw(424242, rawText('nobody')))
    await server.log('debug line from the handle')
    assert.ok((await server.read('logger')) !== undefined)
    a.ws.close()
    b.ws.close()
  } finally {
    await server.close()
  }
})

Raw('namespaces: a client moved to another namespace gets that namespace\'s broadcasts only', async () => {
  const { server, port } = await serve('raw', 'echo')
  try {
    const a = await openClient(port)
    const b = await openClient(port)
    const [idA] = (await server.clients()).map((c) => c.id)
    await server.joinNamespace(idA ?? -1, '/admin')
    await server.joinNamespace(999, '/admin') // not a WebSocket client: ignored
    assert.is(await server.broadcast('hi', 1, { namespace: '/admin' }), 1)
    assert.equal(await a.nextJson(), { event: 'hi', data: 1 })
    assert.is(await server.broadcast('all', 2, { namespace: '/' }), 1)
    assert.equal(await b.nextJson(), { event: 'all', data: 2 })
    assert.is(await server.broadcast('nobody', 3, { namespace: '/none' }), 0)
    a.ws.close()
    b.ws.close()
    await eventually(async () => (await server.namespaces.clientsInNamespace('/admin')).length === 0)
  } finally {
    await server.close()
  }
})

Raw('graceful close: an idle keep-alive HTTP connection is closed and close() resolves', async () => {
  const { server, url } = await serve('raw', 'echo')
  const res = await fetch(`${url}/nope`)
  assert.is(res.status, 404)
  await res.text()
  await server.close()
  await server.close() // twice is harmless
})

Raw.run()

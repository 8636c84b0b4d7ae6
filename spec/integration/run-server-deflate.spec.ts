/**
 * permessage-deflate end to end (RFC 7692): a real server with `perMessageDeflate`, the `ws`
 * package as a client with its `perMessageDeflate` on (both context takeover modes, window
 * bits), and raw sockets for the bytes: what is negotiated and declined, RSV1 where it is
 * allowed and where it is a 1002, compressed frames on the wire, zip bombs (1009), order
 * under asynchronous compression, and a close while a compression is pending.
 *
 * The apps (spec/integration/fixtures/deflate.ts) are served by the runtime TWINPORT_TARGET names
 * (Bun and Deno bring `node:zlib` too); the clients and the spec's own zlib are Node's.
 */
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib'
import * as E from 'fp-ts/lib/Either.js'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { rawText } from '../../lib/core/route/raw-message.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { type Frame, OPCODE } from '../../lib/core/ws/frame.js'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { closeCodeOf, eventually, type RawConnection, rawConnect, type TestClient, testClient } from '../support/server.js'
import { jsonOf } from './fixtures/deflate.js'

const MASK = new Uint8Array([0x37, 0xfa, 0x21, 0x3d])
const masked = (frame: { opcode: number; payload: Uint8Array; fin?: boolean; rsv1?: boolean; rsv2?: boolean }): Uint8Array => encodeFrameBytes(frame, MASK)
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

// RFC 7692 §7.2.1: compress with a sync flush, then leave off the trailing 00 00 ff ff.
const deflate = (data: Uint8Array): Uint8Array => {
  const out = deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH })
  return out.subarray(0, out.length - 4)
}
// RFC 7692 §7.2.2: put the tail back, then inflate.
const inflate = (payload: Uint8Array): Buffer => inflateRawSync(Buffer.concat([payload, Buffer.from([0, 0, 0xff, 0xff])]), { finishFlush: constants.Z_SYNC_FLUSH })

/** A raw WebSocket that offered `extensions`: the 101's head, and the frames after it. */
interface DeflateSocket extends RawConnection {
  readonly head: string
  frames(): Frame[]
}

const offering = async (port: number, extensions: string | undefined, path = '/'): Promise<DeflateSocket> => {
  const conn = await rawConnect(port)
  conn.write(
    `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n' +
      (extensions === undefined ? '' : `Sec-WebSocket-Extensions: ${extensions}\r\n`) +
      '\r\n',
  )
  await conn.until((d) => d.includes('\r\n\r\n'))
  const headEnd = conn.received().indexOf('\r\n\r\n') + 4
  const head = conn.received().subarray(0, headEnd).toString('latin1')
  return {
    ...conn,
    head,
    frames: () => {
      const out: Frame[] = []
      let bytes: Uint8Array = conn.received().subarray(headEnd)
      for (;;) {
        const step = decodeFrame(bytes, { maxPayload: 1 << 26, requireMask: false, allowRsv1: true })
        if (E.isLeft(step) || step.right._tag === 'NeedMore') return out
        out.push(step.right.value)
        bytes = step.right.rest
      }
    },
  }
}

const extensionsOf = (head: string): string | undefined => /\r\nSec-WebSocket-Extensions: ([^\r]*)\r\n/i.exec(head)?.[1]

// What a server frame carries: the message, inflated when RSV1 says it is compressed.
const messageOf = (frame: Frame): string => (frame.rsv1 ? inflate(frame.payload).toString('utf8') : Buffer.from(frame.payload).toString('utf8'))

// A `ws` client, and the server's Sec-WebSocket-Extensions answer as its upgrade response had it.
const openDeflate = (port: number, options: WebSocket.PerMessageDeflateOptions | boolean, path = '/'): Promise<{ client: TestClient; answer: string | undefined }> =>
  new Promise((resolve, reject) => {
    let answer: string | undefined
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { perMessageDeflate: options, maxPayload: 64 * 1024 * 1024 })
    ws.once('upgrade', (res) => {
      const header = res.headers['sec-websocket-extensions']
      answer = Array.isArray(header) ? header.join(', ') : header
    })
    ws.once('error', reject)
    ws.once('open', () => resolve({ client: testClient(ws), answer }))
  })

const withServer = async (app: 'echo' | 'cookie' | 'burst', options: PlainOptions, run: (port: number) => Promise<void>): Promise<void> => {
  const { server, port } = await serve('deflate', app, options)
  try {
    await run(port)
  } finally {
    await server.close()
  }
}

const Negotiation = suite('runServer :: permessage-deflate negotiation')

Negotiation('with ws\'s default offer: server_no_context_takeover answered, messages compressed both ways come back whole', () =>
  withServer('echo', { perMessageDeflate: true }, async (port) => {
    const { client, answer } = await openDeflate(port, { threshold: 0 })
    assert.is(answer, 'permessage-deflate; server_no_context_takeover')
    const big = jsonOf(20_000)
    for (const message of [big, 'small', `${big}!`, '', big]) {
      client.ws.send(message)
      assert.is(await client.next(), message)
    }
    const binary = Buffer.from(jsonOf(5000), 'utf8')
    const got = new Promise<Buffer>((resolve) => client.ws.once('message', (d: Buffer) => resolve(d)))
    client.ws.send(binary, { binary: true })
    assert.ok((await got).equals(binary))
    client.ws.close()
  }),
)

Negotiation('context takeover both ways (serverNoContextTakeover: false): a series of similar messages stays in step', () =>
  withServer('echo', { perMessageDeflate: { serverNoContextTakeover: false } }, async (port) => {
    const { client, answer } = await openDeflate(port, { threshold: 0, serverNoContextTakeover: false, clientNoContextTakeover: false })
    assert.is(answer, 'permessage-deflate')
    for (let i = 0; i < 12; i++) {
      const message = jsonOf(3000 + i * 97, `round-${i}`)
      client.ws.send(message)
      assert.is(await client.next(), message)
    }
    client.ws.close()
  }),
)

Negotiation('the client asks for no context takeover both ways: both are answered', () =>
  withServer('echo', { perMessageDeflate: { serverNoContextTakeover: false } }, async (port) => {
    const { client, answer } = await openDeflate(port, { threshold: 0, serverNoContextTakeover: true, clientNoContextTakeover: true })
    assert.is(answer, 'permessage-deflate; server_no_context_takeover; client_no_context_takeover')
    for (let i = 0; i < 4; i++) {
      const message = jsonOf(4096, `n${i}`)
      client.ws.send(message)
      assert.is(await client.next(), message)
    }
    client.ws.close()
  }),
)

Negotiation('window bits: the client\'s limits are answered and honoured, 8 included', () =>
  withServer('echo', { perMessageDeflate: { serverNoContextTakeover: false } }, async (port) => {
    const cases: ReadonlyArray<readonly [WebSocket.PerMessageDeflateOptions, string]> = [
      [{ serverMaxWindowBits: 10, clientMaxWindowBits: 9 }, 'permessage-deflate; server_max_window_bits=10; client_max_window_bits=9'],
      [{ serverMaxWindowBits: 8, serverNoContextTakeover: true }, 'permessage-deflate; server_no_context_takeover; server_max_window_bits=8'],
      [{ serverMaxWindowBits: 8 }, 'permessage-deflate; server_max_window_bits=8'],
    ]
    for (const [options, expected] of cases) {
      const { client, answer } = await openDeflate(port, { threshold: 0, ...options })
      assert.is(answer, expected)
      for (let i = 0; i < 3; i++) {
        const message = jsonOf(6000, `${expected}-${i}`)
        client.ws.send(message)
        assert.is(await client.next(), message)
      }
      client.ws.close()
    }
  }),
)

Negotiation('window bits: the server\'s own limits are answered to a client that can take them', () =>
  withServer('echo', { perMessageDeflate: { serverMaxWindowBits: 9, clientMaxWindowBits: 10 } }, async (port) => {
    const { client, answer } = await openDeflate(port, { threshold: 0 })
    assert.is(answer, 'permessage-deflate; server_no_context_takeover; server_max_window_bits=9; client_max_window_bits=10')
    const message = jsonOf(10_000)
    client.ws.send(message)
    assert.is(await client.next(), message)
    client.ws.close()
  }),
)

Negotiation('a header an HTTP middleware adds to the acceptance goes out beside the agreement', async () => {
  await withServer('cookie', { perMessageDeflate: true }, async (port) => {
    const raw = await offering(port, 'permessage-deflate')
    assert.match(raw.head, /\r\nSet-Cookie: seen=1\r\nSec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n/)
    raw.write(masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(utf8(jsonOf(2000))) }))
    await raw.until(() => raw.frames().length === 1)
    assert.is(messageOf(raw.frames()[0]!), jsonOf(2000))
    raw.socket.destroy()
  })
})

Negotiation('off by default, and with enabled: false: an offer gets no answer and frames stay plain', async () => {
  for (const perMessageDeflate of [undefined, false, { enabled: false }] as const) {
    await withServer('echo', perMessageDeflate === undefined ? {} : { perMessageDeflate }, async (port) => {
      const raw = await offering(port, 'permessage-deflate; client_max_window_bits')
      assert.ok(raw.head.startsWith('HTTP/1.1 101'))
      assert.is(extensionsOf(raw.head), undefined)
      raw.write(masked({ opcode: OPCODE.TEXT, payload: utf8(jsonOf(4096)) }))
      await raw.until(() => raw.frames().length === 1)
      assert.is(raw.frames()[0]?.rsv1, false)
      // RSV1 without the extension: RFC 6455 §5.2, 1002.
      raw.write(masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(utf8('Hello')) }))
      await raw.until(() => raw.frames().length === 2)
      assert.is(closeCodeOf(raw.frames()[1]), 1002)
      raw.socket.destroy()
    })
  }
})

Negotiation('a Sec-WebSocket-Extensions header that does not parse is refused with 400, and the server goes on', () =>
  withServer('echo', { perMessageDeflate: true }, async (port) => {
    for (const header of ['permessage-deflate;', 'permessage-deflate; a="b', ', ;', 'permessage-deflate; x=@']) {
      const raw = await rawConnect(port)
      raw.write(
        'GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
          `Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: ${header}\r\n\r\n`,
      )
      const text = (await raw.until((d) => d.includes('}'))).toString('latin1')
      assert.match(text, /^HTTP\/1\.1 400 /, header)
      assert.match(text, /\{"error":"invalid Sec-WebSocket-Extensions header"\}$/)
      raw.socket.destroy()
    }
    const { client, answer } = await openDeflate(port, true)
    assert.is(answer, 'permessage-deflate; server_no_context_takeover')
    client.ws.close()
  }),
)

Negotiation('offers the RFC says to decline are declined: 101 without the extension, and RSV1 is then a 1002', () =>
  withServer('echo', { perMessageDeflate: { clientMaxWindowBits: 12 } }, async (port) => {
    const declined = [
      'permessage-deflate; server_max_window_bits=16',
      'permessage-deflate; server_max_window_bits=08',
      'permessage-deflate; server_max_window_bits',
      'permessage-deflate; client_max_window_bits=7',
      'permessage-deflate; server_no_context_takeover; server_no_context_takeover',
      'permessage-deflate; client_no_context_takeover=1',
      'permessage-deflate; mux',
      // The server limits the client's window, and this client cannot be told so (§7.1.2.2).
      'permessage-deflate',
      'x-webkit-deflate-frame',
    ]
    for (const offer of declined) {
      const raw = await offering(port, offer)
      assert.ok(raw.head.startsWith('HTTP/1.1 101'), offer)
      assert.is(extensionsOf(raw.head), undefined, offer)
      raw.write(masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(utf8('Hello')) }))
      await raw.closed()
      assert.is(closeCodeOf(raw.frames()[0]), 1002, offer)
    }
    // The first acceptable offer wins, in the client's order.
    const raw = await offering(port, 'permessage-deflate; server_max_window_bits=16, permessage-deflate; client_max_window_bits=10, permessage-deflate')
    assert.is(extensionsOf(raw.head), 'permessage-deflate; server_no_context_takeover; client_max_window_bits=10')
    raw.socket.destroy()
  }),
)

const Frames = suite('runServer :: permessage-deflate frames')

Frames('server frames of threshold bytes and more carry RSV1 and inflate to the message; smaller ones are plain', () =>
  withServer('echo', { perMessageDeflate: { threshold: 100 } }, async (port) => {
    const raw = await offering(port, 'permessage-deflate')
    assert.is(extensionsOf(raw.head), 'permessage-deflate; server_no_context_takeover')
    const big = jsonOf(8000)
    const exact = 'x'.repeat(100)
    raw.write(masked({ opcode: OPCODE.TEXT, payload: utf8(big) }))
    raw.write(masked({ opcode: OPCODE.TEXT, payload: utf8('x'.repeat(99)) }))
    raw.write(masked({ opcode: OPCODE.TEXT, payload: utf8(exact) }))
    await raw.until(() => raw.frames().length === 3)
    const [a, b, c] = raw.frames() as [Frame, Frame, Frame]
    assert.equal([a.rsv1, b.rsv1, c.rsv1], [true, false, true])
    assert.is(messageOf(a), big)
    assert.ok(a.payload.length * 4 < big.length, `compressed ${a.payload.length} of ${big.length}`)
    assert.is(messageOf(b), 'x'.repeat(99))
    assert.is(messageOf(c), exact)
    raw.socket.destroy()
  }),
)

Frames('compressed client frames: RFC 7692 §7.2.3.1 "Hello", fragmented, empty, binary', () =>
  withServer('echo', { perMessageDeflate: true }, async (port) => {
    const raw = await offering(port, 'permessage-deflate; client_max_window_bits')
    // 0xc1 0x07 f2 48 cd c9 c9 07 00, masked.
    raw.write(masked({ opcode: OPCODE.TEXT, rsv1: true, payload: Uint8Array.of(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00) }))
    // §7.2.3.1 again, in two frames: RSV1 on the first only.
    raw.write(masked({ opcode: OPCODE.TEXT, rsv1: true, fin: false, payload: Uint8Array.of(0xf2, 0x48, 0xcd) }))
    raw.write(masked({ opcode: OPCODE.CONTINUATION, payload: Uint8Array.of(0xc9, 0xc9, 0x07, 0x00) }))
    // §7.2.3.6: an empty message as the one byte 00.
    raw.write(masked({ opcode: OPCODE.TEXT, rsv1: true, payload: Uint8Array.of(0x00) }))
    raw.write(masked({ opcode: OPCODE.BINARY, rsv1: true, payload: deflate(Uint8Array.of(1, 2, 3)) }))
    await raw.until(() => raw.frames().length === 4)
    const frames = raw.frames()
    assert.equal(frames.map((f) => [f.opcode, f.rsv1, [...f.payload]]), [
      [OPCODE.TEXT, false, [...utf8('Hello')]],
      [OPCODE.TEXT, false, [...utf8('Hello')]],
      [OPCODE.TEXT, false, []],
      [OPCODE.BINARY, false, [1, 2, 3]],
    ])
    raw.socket.destroy()
  }),
)

// Bad uses of RSV1 and of compressed data once the extension is agreed, and the close code.
const badFrames: ReadonlyArray<readonly [string, () => Uint8Array, number]> = [
  ['RSV1 on a ping (RFC 7692 §6.1)', () => masked({ opcode: OPCODE.PING, rsv1: true, payload: utf8('p') }), 1002],
  ['RSV1 on a close frame', () => masked({ opcode: OPCODE.CLOSE, rsv1: true, payload: Uint8Array.of(0x03, 0xe8) }), 1002],
  [
    'RSV1 on a continuation frame',
    () =>
      Buffer.concat([
        masked({ opcode: OPCODE.TEXT, rsv1: true, fin: false, payload: Uint8Array.of(0xf2, 0x48) }),
        masked({ opcode: OPCODE.CONTINUATION, rsv1: true, payload: Uint8Array.of(0xcd, 0xc9, 0xc9, 0x07, 0x00) }),
      ]),
    1002,
  ],
  ['RSV2 (no extension defines it)', () => masked({ opcode: OPCODE.TEXT, rsv2: true, payload: utf8('x') }), 1002],
  ['a compressed payload that is not DEFLATE', () => masked({ opcode: OPCODE.TEXT, rsv1: true, payload: Uint8Array.of(0xff, 0xff, 0xff, 0xff) }), 1007],
  ['compressed text that is not UTF-8 once inflated', () => masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(Uint8Array.of(0x48, 0xc3, 0x28)) }), 1007],
]

for (const [name, frame, code] of badFrames) {
  Frames(`${name}: closes with ${code}, and the server goes on`, () =>
    withServer('echo', { perMessageDeflate: true }, async (port) => {
      const raw = await offering(port, 'permessage-deflate')
      raw.write(frame())
      await raw.closed()
      const last = raw.frames().at(-1)
      assert.is(last?.opcode, OPCODE.CLOSE)
      assert.is(closeCodeOf(last), code)
      const { client } = await openDeflate(port, true)
      client.ws.send('still here')
      assert.is(await client.next(), 'still here')
      client.ws.close()
    }),
  )
}

Frames('a zip bomb: 16 MiB of zeros in 16 KiB closes with 1009 at the message limit, and the server goes on', () =>
  withServer('echo', { perMessageDeflate: true, limits: { maxMessage: 256 * 1024 } }, async (port) => {
    const bomb = deflate(new Uint8Array(16 * 1024 * 1024))
    assert.ok(bomb.length < 32 * 1024)
    const raw = await offering(port, 'permessage-deflate')
    // Within the limit once inflated: fine.
    raw.write(masked({ opcode: OPCODE.BINARY, rsv1: true, payload: deflate(new Uint8Array(256 * 1024)) }))
    await raw.until(() => raw.frames().length === 1)
    assert.is(raw.frames()[0]?.rsv1, true)
    assert.is(inflate(raw.frames()[0]!.payload).length, 256 * 1024)
    raw.write(masked({ opcode: OPCODE.BINARY, rsv1: true, payload: bomb }))
    await raw.closed()
    const close = raw.frames()[1]
    assert.is(closeCodeOf(close), 1009)
    assert.is(Buffer.from(close!.payload.subarray(2)).toString(), 'message too big')
    const { client } = await openDeflate(port, true)
    client.ws.send('next')
    assert.is(await client.next(), 'next')
    client.ws.close()
  }),
)

Frames('messages behind one being inflated wait for it: a compressed echo, a plain one and a ping leave in that order', () =>
  withServer('echo', { perMessageDeflate: true }, async (port) => {
    const raw = await offering(port, 'permessage-deflate')
    const big = jsonOf(50_000)
    raw.write(
      Buffer.concat([
        masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(utf8(big)) }),
        masked({ opcode: OPCODE.TEXT, payload: utf8('second') }),
        masked({ opcode: OPCODE.PING, payload: utf8('third') }),
        masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(utf8('fourth')) }),
      ]),
    )
    await raw.until(() => raw.frames().length === 4)
    const frames = raw.frames()
    assert.equal(
      frames.map((f) => [f.opcode, messageOf(f).slice(0, 10)]),
      [
        [OPCODE.TEXT, big.slice(0, 10)],
        [OPCODE.TEXT, 'second'],
        [OPCODE.PONG, 'third'],
        [OPCODE.TEXT, 'fourth'],
      ],
    )
    assert.is(messageOf(frames[0]!), big)
    raw.socket.destroy()
  }),
)

const Order = suite('runServer :: permessage-deflate order and close')

// The burst app (spec/integration/fixtures/deflate.ts): `burst` answers with events of mixed sizes to
// the client, its room and itself again, then an ack; `bye` sends a large event and closes.
Order('events, broadcasts and acks of mixed sizes arrive in the order they were sent', () =>
  withServer('burst', { perMessageDeflate: { threshold: 512 } }, async (port) => {
    const a = (await openDeflate(port, true)).client
    const b = (await openDeflate(port, false)).client
    const c = (await openDeflate(port, { serverMaxWindowBits: 10 })).client
    a.emit('burst', 30, 1)
    const seen: number[] = []
    for (let k = 0; k < 30; k++) {
      const m = await a.nextJson()
      seen.push((m.data as { i: number }).i)
      assert.is(m.event, k % 3 === 0 ? 'big' : k % 3 === 1 ? 'small' : 'room')
    }
    assert.equal(seen, Array.from({ length: 30 }, (_, i) => i))
    assert.equal(await a.nextJson(), { event: 'ack', id: 1, data: 'done' })
    for (const other of [b, c]) {
      for (let k = 2; k < 30; k += 3) {
        const m = await other.nextJson()
        assert.equal([m.event, (m.data as { i: number }).i], ['room', k])
      }
    }
    for (const client of [a, b, c]) client.ws.close()
  }),
)

Order('raw echoes of alternating large and small messages come back in order (context takeover too)', async () => {
  for (const perMessageDeflate of [true, { serverNoContextTakeover: false, threshold: 256 }]) {
    await withServer('echo', { perMessageDeflate }, async (port) => {
      const { client } = await openDeflate(port, { threshold: 0, serverNoContextTakeover: false })
      const sent = Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? jsonOf(1000 + 37 * i, String(i)) : `small ${i}`))
      for (const message of sent) client.ws.send(message)
      for (const message of sent) assert.is(await client.next(), message)
      client.ws.close()
    })
  }
})

Order('a close while a compression is pending goes out after the frames sent before it', () =>
  withServer('burst', { perMessageDeflate: true }, async (port) => {
    const { client } = await openDeflate(port, true)
    client.emit('bye')
    const last = await client.nextJson()
    assert.is(last.event, 'last')
    assert.is(last.data, jsonOf(30_000))
    assert.equal(await client.closed(), { code: 1000, reason: '' })
  }),
)

Order('the client\'s close behind a compressed message: the echo, then the close reply', () =>
  withServer('echo', { perMessageDeflate: true }, async (port) => {
    const raw = await offering(port, 'permessage-deflate')
    const big = jsonOf(40_000)
    raw.write(
      Buffer.concat([
        masked({ opcode: OPCODE.TEXT, rsv1: true, payload: deflate(utf8(big)) }),
        masked({ opcode: OPCODE.CLOSE, payload: Uint8Array.of(0x03, 0xe8) }),
      ]),
    )
    await raw.closed()
    const frames = raw.frames()
    assert.equal(frames.map((f) => [f.opcode, f.rsv1]), [[OPCODE.TEXT, true], [OPCODE.CLOSE, false]])
    assert.is(messageOf(frames[0]!), big)
    assert.is(closeCodeOf(frames[1]), 1000)
  }),
)

Order('server.close() right after a broadcast: every client gets the broadcast, then 1001', async () => {
  const { server, port } = await serve('deflate', 'burst', { perMessageDeflate: true })
  const clients = [(await openDeflate(port, true)).client, (await openDeflate(port, false)).client, (await openDeflate(port, { serverMaxWindowBits: 9 })).client]
  const message = jsonOf(20_000)
  // In one turn, as the spec once called them: close() while the compressions are pending.
  const [reached] = await server.batch([['broadcastRaw', rawText(message), { room: 'r' }], ['close']])
  assert.is(reached, 3)
  for (const client of clients) {
    assert.is(await client.next(), message)
    assert.is((await client.closed()).code, 1001)
  }
})

const Broadcast = suite('runServer :: permessage-deflate broadcast')

Broadcast('one broadcast reaches clients with every kind of agreement, each able to read it', async () => {
  for (const serverNoContextTakeover of [true, false]) {
    const { server, port } = await serve('deflate', 'burst', { perMessageDeflate: { serverNoContextTakeover } })
    try {
      const clients = [
        (await openDeflate(port, true)).client,
        (await openDeflate(port, { serverMaxWindowBits: 10 })).client,
        (await openDeflate(port, { serverNoContextTakeover: true })).client,
        (await openDeflate(port, false)).client,
      ]
      for (let round = 0; round < 3; round++) {
        const message = jsonOf(4096, `round ${round}`)
        assert.is(await server.broadcastRaw(rawText(message), { room: 'r' }), clients.length)
        await server.broadcast('small', round)
        for (const client of clients) {
          assert.is(await client.next(), message)
          assert.equal(await client.nextJson(), { event: 'small', data: round })
        }
      }
      for (const client of clients) client.ws.close()
      await eventually(async () => (await server.clients()).length === 0)
    } finally {
      await server.close()
    }
  }
})

Broadcast('with server_no_context_takeover, a broadcast goes out compressed to each window\'s receivers, the same bytes within one', async () => {
  const { server, port } = await serve('deflate', 'burst', { perMessageDeflate: true })
  try {
    const sockets = [
      await offering(port, 'permessage-deflate'),
      await offering(port, 'permessage-deflate; client_max_window_bits'),
      await offering(port, 'permessage-deflate; server_max_window_bits=10'),
      await offering(port, undefined),
    ]
    await eventually(async () => (await server.namespaces.clientsInRoom('r')).length === sockets.length)
    const message = jsonOf(4096)
    assert.is(await server.broadcastRaw(rawText(message), { room: 'r' }), sockets.length)
    for (const s of sockets) await s.until(() => s.frames().length === 1)
    const [a, b, c, plain] = sockets.map((s) => s.frames()[0]!) as [Frame, Frame, Frame, Frame]
    assert.equal([a.rsv1, b.rsv1, c.rsv1, plain.rsv1], [true, true, true, false])
    assert.equal([...a.payload], [...b.payload])
    for (const frame of [a, b, c, plain]) assert.is(messageOf(frame), message)
    for (const s of sockets) s.socket.destroy()
  } finally {
    await server.close()
  }
})

Negotiation.run()
Frames.run()
Order.run()
Broadcast.run()

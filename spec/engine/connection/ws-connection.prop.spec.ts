/**
 * The small-frame path of a WebSocket connection (lib/engine/connection/ws-connection.ts) against the general
 * decoder alone (`createEngine`'s internal `smallFrames: false`): for generated client streams (small frames
 * mostly, with fragments, control frames, unmasked frames, RSV bits, reserved opcodes, bad
 * UTF-8 and bad close codes among them), cut into chunks at random, the engine writes the
 * same bytes to every connection, ends and closes the same connections, and hands the
 * handlers the same messages, whatever the handlers do: echo, answer something else, answer
 * later, write before answering, throw, broadcast, disconnect; and nothing is written to a
 * connection after a close frame. Portable (Node, Bun, Deno).
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { RawMessage } from '../../../lib/core/route/raw-message.js'
import { rawText } from '../../../lib/core/route/raw-message.js'
import { onConnect } from '../../../lib/core/route/on-connect.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import { socketOn } from '../../../lib/core/route/socket-on.js'
import type { RouteTable } from '../../../lib/core/route/route.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import type { Platform } from '../../../lib/engine/platform.js'
import type { DeflateCodec } from '../../../lib/core/ws/extensions/message-codec.js'
import { acceptMemorySocket, memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'
import { cutInto, encodeStream, frameArb, type StreamFrame, streamArb } from '../../support/ws-stream.js'

const HANDSHAKE = new TextEncoder().encode(
  'GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
)

// The memory platform with timers that never fire: close time-outs and the heartbeat stay
// out of a comparison that runs in one turn, and nothing is left to keep the process alive.
const platform: Platform<MemorySocket> = {
  ...memoryPlatform<MemorySocket>(),
  timers: {
    now: () => 0,
    setTimeout: () => 0,
    clearTimeout: () => undefined,
    setInterval: () => 0,
    clearInterval: () => undefined,
    afterIo: (run) => void Promise.resolve().then(run),
  },
}

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('')

// A raw route whose answer depends on the text's first character: every way a handler can
// answer, write, fail or close while the small frames of a chunk are held for one write.
const rawRoutes = (seen: RawMessage[]): RouteTable => [
  onConnect((ctx) => ctx.joinRoom('all')),
  onMessage((message, ctx) => {
    seen.push(message)
    if (message._tag === 'Binary') return message
    switch (message.text[0]) {
      case 'b':
        return rawText(`B${message.text}`)
      case 'c':
        return Promise.resolve(message)
      case 'd':
        ctx.sendRaw(rawText('D'))
        return message
      case 'e':
        throw new Error('handler failed')
      case 'f':
        return undefined
      case 'g':
        ctx.disconnectClient()
        return message
      case 'h':
        ctx.broadcastRaw(message, { room: 'all' })
        return message
      default:
        return message
    }
  }),
]

// An envelope route: texts are JSON events, answered with an ack when they carry an id.
const eventRoutes = (seen: RawMessage[]): RouteTable => [
  socketOn('echo', (data: unknown) => {
    seen.push(rawText(JSON.stringify(data)))
    return data
  }),
]

// Streams with small texts the handlers above react to, and envelopes.
const steeredArb: fc.Arbitrary<StreamFrame> = fc
  .record({
    text: fc.oneof(
      fc.tuple(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'é'), fc.string({ maxLength: 8 })).map(([a, b]) => a + b),
      fc.record({ data: fc.jsonValue({ maxDepth: 1 }), id: fc.option(fc.nat(), { nil: undefined }) }).map((e) => JSON.stringify({ event: 'echo', ...e })),
    ),
    key: fc.uint8Array({ minLength: 4, maxLength: 4 }),
  })
  .map(({ text, key }) => ({ fin: true, rsv1: false, rsv2: false, opcode: 1, payload: utf8(text), key }))

const clientStreamArb = fc
  .array(fc.oneof({ weight: 3, arbitrary: steeredArb.map((f) => [f]) }, { weight: 2, arbitrary: streamArb }, { weight: 1, arbitrary: frameArb.map((f) => [f]) }), { maxLength: 6 })
  .map((groups) => groups.flat())

interface Run {
  readonly out: string[]
  readonly ended: boolean[]
  readonly closed: boolean[]
  readonly seen: string[]
  /** Every binary message a handler got is a plain Uint8Array (not the runtime's subclass). */
  readonly plain: boolean
  /** No connection was written anything after a close frame (RFC 6455 §5.5.1). */
  readonly closeLast: boolean
}

// Two connections on one engine; their chunks are fed in turns (A's first chunk, B's first, …).
const run = async (
  small: boolean,
  table: (seen: RawMessage[]) => RouteTable,
  streams: readonly (readonly Uint8Array[])[],
  feed: (chunk: Uint8Array) => Uint8Array = (chunk) => chunk,
  on: Platform<MemorySocket> = platform,
  allocate: (size: number) => Uint8Array = on.allocate,
  simdMasking = true,
): Promise<Run> => {
  const seen: RawMessage[] = []
  const engine = createEngine({ routes: table(seen), limits: { maxFramePayload: 100, maxMessage: 150 } }, { ...on, allocate }, { smallFrames: small, simdMasking })
  const sockets = streams.map((): MemorySocket => ({ out: [], ended: false, closed: false }))
  const clients = sockets.map((socket) => {
    const client = engine.accept(socket)
    if (client === undefined) throw new Error('refused')
    client.receiver.receive(HANDSHAKE.slice())
    return client
  })
  await Promise.resolve()
  const turns = Math.max(...streams.map((s) => s.length))
  for (let i = 0; i < turns; i++) {
    streams.forEach((chunks, c) => {
      const chunk = chunks[i]
      if (chunk !== undefined) clients[c]!.receiver.receive(feed(chunk))
    })
  }
  for (let i = 0; i < 5; i++) await Promise.resolve()
  return {
    out: sockets.map((s) => s.out.map(hex).join('')),
    ended: sockets.map((s) => s.ended),
    closed: sockets.map((s) => s.closed),
    // Read after the run: a message's bytes must not have moved under it.
    seen: seen.map((m) => (m._tag === 'Text' ? `T${JSON.stringify({ ...m })}${m.text}` : `B${hex(m.data)}`)),
    plain: seen.every((m) => m._tag === 'Text' || m.data.constructor === Uint8Array),
    // A close frame is written alone (0x88: FIN, opcode 8): it is the last write, if any.
    closeLast: sockets.every((s) => {
      const close = s.out.findIndex((bytes) => bytes[0] === 0x88)
      return close < 0 || close === s.out.length - 1
    }),
  }
}

const cutsArb = fc.array(fc.nat(), { maxLength: 5 })

for (const [name, table] of [
  ['a raw route', rawRoutes],
  ['an envelope route', eventRoutes],
] as const) {
  test(`WsConnection :: with ${name}, small frames give the same bytes, closes and messages as the general decoder`, async () => {
    await fc.assert(
      fc.asyncProperty(clientStreamArb, cutsArb, clientStreamArb, cutsArb, async (a, aCuts, b, bCuts) => {
        const streams = [cutInto(encodeStream(a), aCuts), cutInto(encodeStream(b), bCuts)]
        const small = await run(true, table, streams)
        assert.equal(small, await run(false, table, streams))
        assert.ok(small.closeLast)
      }),
      { numRuns: 400 },
    )
  })
}

// A platform's ASCII reader held to its contract: it throws on any byte past 0x7f (a run of
// small frames is read as one text with every frame's first byte made ASCII for the reading).
const strictAscii: Platform<MemorySocket> = {
  ...platform,
  decodeAscii: (bytes, from, to) => {
    let text = ''
    for (let i = from; i < to; i++) {
      if (bytes[i]! > 0x7f) throw new Error(`decodeAscii given byte ${bytes[i]} at ${i}`)
      text += String.fromCharCode(bytes[i]!)
    }
    return text
  },
}

test('WsConnection :: with a platform ASCII reader (given ASCII only), small frames give the same bytes, closes and messages as the general decoder', async () => {
  await fc.assert(
    fc.asyncProperty(clientStreamArb, cutsArb, clientStreamArb, cutsArb, fc.boolean(), async (a, aCuts, b, bCuts, raw) => {
      const streams = [cutInto(encodeStream(a), aCuts), cutInto(encodeStream(b), bCuts)]
      const table = raw ? rawRoutes : eventRoutes
      assert.equal(await run(true, table, streams, undefined, strictAscii), await run(false, table, streams))
    }),
    { numRuns: 400 },
  )
})

// What a runtime may read into: a subclass of Uint8Array whose `subarray` gives the subclass
// and whose `slice` is a view, not a copy, as a Node Buffer's.
class RuntimeBytes extends Uint8Array {
  override slice(start?: number, end?: number): RuntimeBytes {
    return this.subarray(start, end) as RuntimeBytes
  }
}

// Streams with binary messages past the 64 bytes a masked copy keeps on the heap (it copies
// longer ones with `slice`, then unmasks the copy in place).
const longBinaryArb: fc.Arbitrary<StreamFrame> = fc
  .record({ payload: fc.uint8Array({ minLength: 41, maxLength: 100 }), key: fc.uint8Array({ minLength: 4, maxLength: 4 }) })
  .map(({ payload, key }) => ({ fin: true, rsv1: false, rsv2: false, opcode: 2, payload, key }))
const runtimeStreamArb = fc
  .array(fc.oneof({ weight: 2, arbitrary: clientStreamArb }, { weight: 1, arbitrary: longBinaryArb.map((f) => [f]) }), { maxLength: 4 })
  .map((groups) => groups.flat())

test('WsConnection :: chunks and scratch arrays of a Uint8Array subclass (a Node Buffer) give what plain ones give, chunks are never written to, and no handler gets the subclass', async () => {
  await fc.assert(
    fc.asyncProperty(runtimeStreamArb, cutsArb, runtimeStreamArb, cutsArb, fc.boolean(), fc.boolean(), async (a, aCuts, b, bCuts, small, simd) => {
      // Without WebAssembly, a masked copy past 64 bytes is the source's `slice`, unmasked in place.
      const streams = [cutInto(encodeStream(a), aCuts), cutInto(encodeStream(b), bCuts)]
      const fed: [Uint8Array, RuntimeBytes][] = []
      const asRuntime = (chunk: Uint8Array): Uint8Array => {
        const bytes = new RuntimeBytes(chunk)
        fed.push([chunk, bytes])
        return bytes
      }
      const plain = await run(small, rawRoutes, streams, undefined, platform, platform.allocate, simd)
      // The scratch arrays the frames out are written to are the runtime's too (Node's pool).
      assert.equal(await run(small, rawRoutes, streams, asRuntime, platform, (size) => new RuntimeBytes(size), simd), plain)
      assert.ok(plain.plain)
      for (const [chunk, bytes] of fed) assert.is(hex(bytes), hex(chunk))
    }),
    { numRuns: 300 },
  )
})

// The raw-route echo app on a memory socket, upgraded, its 101 cleared: what a spec feeds frames to.
const openRawEcho = (seen: RawMessage[], simdMasking = true): ReturnType<typeof acceptMemorySocket> => {
  const opened = acceptMemorySocket(createEngine({ routes: rawRoutes(seen) }, platform, { simdMasking }))
  opened.client.receiver.receive(HANDSHAKE.slice())
  opened.socket.out = []
  return opened
}

test('WsConnection :: a text frame checked as its chunks of a Uint8Array subclass arrive (a Node Buffer, no SIMD) leaves them as they were and is echoed whole', () => {
  // Past 64 bytes without WebAssembly, the check's masked copy of a chunk is the chunk's
  // `slice`, unmasked in place: a view on a Buffer, so the chunk must reach it as a plain view.
  const text = 'a'.repeat(200)
  const bytes = encodeStream([{ fin: true, rsv1: false, rsv2: false, opcode: 1, payload: utf8(text), key: Uint8Array.of(0x37, 0xfa, 0x21, 0x3d) }])
  const chunks = [bytes.subarray(0, 20), bytes.subarray(20, 120), bytes.subarray(120)].map((chunk) => new RuntimeBytes(chunk))
  const before = chunks.map(hex)
  const seen: RawMessage[] = []
  const { socket, client } = openRawEcho(seen, false)
  for (const chunk of chunks) client?.receiver.receive(chunk)
  assert.equal(chunks.map(hex), before)
  assert.equal(seen, [rawText(text)])
  assert.equal(socket.out.map(hex), ['817e00c8' + hex(utf8(text))])
})

// permessage-deflate whose DEFLATE is the identity, answering a turn later: what arrives while
// a message "inflates" waits in the session's queue.
const identityCodec: DeflateCodec = {
  createCompressor: () => ({ compress: (m) => Promise.resolve(m), close: () => undefined }),
  createDecompressor: () => ({ decompress: (p) => Promise.resolve(E.right(p)), close: () => undefined }),
  sharedCompressor: () => ({ compress: (m) => Promise.resolve(m), close: () => undefined }),
  close: () => undefined,
}

test('WsConnection :: chunks of a Uint8Array subclass queued while a compressed message inflates are never written to, and handlers get plain arrays', async () => {
  for (const cut of [false, true]) {
    const key = Uint8Array.of(0x37, 0xfa, 0x21, 0x3d)
    const long = Uint8Array.from({ length: 100 }, (_, i) => i)
    const compressed = encodeStream([{ fin: true, rsv1: true, rsv2: false, opcode: 2, payload: Uint8Array.of(1, 2, 3), key }])
    const after = encodeStream([
      { fin: true, rsv1: false, rsv2: false, opcode: 2, payload: long, key },
      { fin: true, rsv1: false, rsv2: false, opcode: 2, payload: Uint8Array.of(9), key },
    ])
    // The queue holds one chunk (handed to the decoder as it is) or two (joined into a new array).
    const chunks = (cut ? [compressed, after.subarray(0, 50), after.subarray(50)] : [compressed, after]).map((chunk) => new RuntimeBytes(chunk))
    const before = chunks.map(hex)
    const seen: RawMessage[] = []
    const engine = createEngine({ routes: [onMessage((m) => void seen.push(m))], perMessageDeflate: { threshold: 0 } }, { ...platform, deflate: () => identityCodec }, { simdMasking: false })
    const socket: MemorySocket = { out: [], ended: false, closed: false }
    const client = engine.accept(socket)
    client?.receiver.receive(utf8(latin1(HANDSHAKE).replace('\r\n\r\n', '\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n')))
    for (const chunk of chunks) client?.receiver.receive(chunk)
    for (let i = 0; i < 5; i++) await Promise.resolve()
    assert.equal(chunks.map(hex), before)
    assert.equal(seen.map((m) => (m._tag === 'Binary' ? [m.data.constructor === Uint8Array, hex(m.data)] : m.text)), [
      [true, '010203'],
      [true, hex(long)],
      [true, '09'],
    ])
  }
})

test('WsConnection :: a run of echoes leaves in one write, and a write during a handler goes out between them in order', async () => {
  const frame = (text: string): Uint8Array => encodeStream([{ fin: true, rsv1: false, rsv2: false, opcode: 1, payload: utf8(text), key: Uint8Array.of(1, 2, 3, 4) }])
  const chunk = new Uint8Array([...frame('a1'), ...frame('a2'), ...frame('d3'), ...frame('a4')])
  const seen: RawMessage[] = []
  const { socket, client } = openRawEcho(seen)
  client?.receiver.receive(chunk)
  // a1 a2 together; D (written by the handler of d3) before d3's echo; then d3 and a4 together.
  assert.equal(socket.out.map(hex), ['81026131' + '81026132', '810144', '81026433' + '81026134'])
})

test.run()

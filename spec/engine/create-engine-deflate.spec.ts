/**
 * The engine's permessage-deflate wiring on an in-memory platform (portable: runs in Node,
 * Bun and Deno): a platform without a codec declines the extension and says so; a codec
 * whose zlib fails closes the connection with 1011, whether compressing or inflating.
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LogEntry } from '../../lib/core/log/logger.js'
import { makeLogger } from '../../lib/core/log/make-logger.js'
import { onMessage } from '../../lib/core/route/on-message.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import type { DeflateCodec, MessageCompressor, MessageDecompressor } from '../../lib/core/ws/extensions/message-codec.js'
import { type Frame, OPCODE } from '../../lib/core/ws/frame.js'
import { createEngine } from '../../lib/engine/create-engine.js'
import type { Platform } from '../../lib/engine/platform.js'
import { memoryPlatform, type MemorySocket } from '../support/memory-platform.js'

type FakeSocket = MemorySocket

const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('')

const platform = (deflate: Platform<FakeSocket>['deflate']): Platform<FakeSocket> => memoryPlatform(deflate)

const HANDSHAKE =
  'GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Extensions: permessage-deflate\r\n\r\n'

const MASK = Uint8Array.of(1, 2, 3, 4)
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5))

// What the server wrote after its 101: the head, and the frames.
const written = (socket: FakeSocket): { head: string; frames: Frame[] } => {
  const all = new Uint8Array(socket.out.reduce((n, b) => n + b.length, 0))
  let at = 0
  for (const b of socket.out) {
    all.set(b, at)
    at += b.length
  }
  const text = latin1(all)
  const end = text.indexOf('\r\n\r\n') + 4
  const frames: Frame[] = []
  let rest: Uint8Array = all.subarray(end)
  for (;;) {
    const step = decodeFrame(rest, { maxPayload: 1 << 20, requireMask: false, allowRsv1: true })
    if (E.isLeft(step) || step.right._tag === 'NeedMore') break
    frames.push(step.right.value)
    rest = step.right.rest
  }
  return { head: text.slice(0, end), frames }
}

const failing = (what: 'compress' | 'decompress'): DeflateCodec => {
  const compressor: MessageCompressor = {
    compress: (m) => (what === 'compress' ? Promise.reject(new Error('zlib failed')) : Promise.resolve(m)),
    close: () => undefined,
  }
  const decompressor: MessageDecompressor = {
    decompress: (p) => (what === 'decompress' ? Promise.reject(new Error('zlib failed')) : Promise.resolve(E.right(p))),
    close: () => undefined,
  }
  return { createCompressor: () => compressor, createDecompressor: () => decompressor, sharedCompressor: () => compressor, close: () => undefined }
}

const run = async (deflate: Platform<FakeSocket>['deflate'], frame: Uint8Array | undefined) => {
  const entries: LogEntry[] = []
  const engine = createEngine(
    { perMessageDeflate: { threshold: 0 }, routes: [onMessage((m) => m)], logger: makeLogger((e) => entries.push(e)) },
    platform(deflate),
  )
  const socket: FakeSocket = { out: [], ended: false, closed: false }
  const client = engine.accept(socket)
  assert.ok(client !== undefined)
  client.receiver.receive(new TextEncoder().encode(HANDSHAKE))
  await tick()
  if (frame !== undefined) client.receiver.receive(frame)
  await tick()
  const closing = engine.handle.close()
  engine.closed(client)
  await closing
  return { entries, socket, ...written(socket) }
}

test('createEngine :: perMessageDeflate on a platform with no codec: declined, and said once at start-up', async () => {
  const { entries, head, frames } = await run(undefined, encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('plain') }, MASK))
  assert.match(head, /^HTTP\/1\.1 101 /)
  assert.not.match(head, /Sec-WebSocket-Extensions/i)
  assert.equal(frames.map((f) => [f.rsv1, latin1(f.payload)]), [[false, 'plain'], [false, '\u0003\u00e9server shutting down']])
  assert.equal(entries.filter((e) => e.level === 'warning').map((e) => e.message), ['perMessageDeflate is on, but this runtime has no DEFLATE codec: the extension is declined'])
})

test('createEngine :: zlib failing to compress a reply closes the connection with 1011, logged', async () => {
  const { entries, head, frames, socket } = await run(() => failing('compress'), encodeFrameBytes({ opcode: OPCODE.TEXT, payload: new TextEncoder().encode('echo me') }, MASK))
  assert.match(head, /\r\nSec-WebSocket-Extensions: permessage-deflate; server_no_context_takeover\r\n/)
  assert.equal(frames.map((f) => [f.opcode, latin1(f.payload)]), [[OPCODE.CLOSE, '\u0003\u00f3compression failed']])
  assert.ok(socket.ended)
  assert.equal(entries.filter((e) => e.level === 'error').map((e) => e.context['phase']), ['permessage-deflate'])
})

test('createEngine :: zlib failing to inflate closes the connection with 1011', async () => {
  const compressed = encodeFrameBytes({ opcode: OPCODE.TEXT, rsv1: true, payload: Uint8Array.of(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00) }, MASK)
  const { frames, socket } = await run(() => failing('decompress'), compressed)
  assert.equal(frames.map((f) => [f.opcode, latin1(f.payload)]), [[OPCODE.CLOSE, '\u0003\u00f3compression failed']])
  assert.ok(socket.ended)
})

test.run()

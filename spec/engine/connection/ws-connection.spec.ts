/**
 * WsConnection (lib/engine/connection/ws-connection.ts) on an in-memory platform, by example: after the
 * server's close frame no data frame leaves (RFC 6455 §5.5.1), whether the frame would be a
 * handler's answer, an echo held for one write, a send or a broadcast, with the small-frame
 * path or the general decoder, and with permessage-deflate. Portable (Node, Bun, Deno).
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { rawText } from '../../../lib/core/route/raw-message.js'
import { onMessage } from '../../../lib/core/route/on-message.js'
import type { DeflateCodec } from '../../../lib/core/ws/extensions/message-codec.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import type { Platform } from '../../../lib/engine/platform.js'
import { memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'
import { encodeStream } from '../../support/ws-stream.js'

const UPGRADE =
  'GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n'
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)
const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 5))
const textFrame = (text: string): Uint8Array =>
  encodeStream([{ fin: true, rsv1: false, rsv2: false, opcode: 1, payload: utf8(text), key: Uint8Array.of(1, 2, 3, 4) }])

// permessage-deflate whose DEFLATE is the identity, a turn later (frames wait in the session's queue).
const identity: DeflateCodec = {
  createCompressor: () => ({ compress: (m) => Promise.resolve(m), close: () => undefined }),
  createDecompressor: () => ({ decompress: (p) => Promise.resolve(E.right(p)), close: () => undefined }),
  sharedCompressor: () => ({ compress: (m) => Promise.resolve(m), close: () => undefined }),
  close: () => undefined,
}

// RFC 6455 §5.5.1: 0x88 is a close frame; 88 02 03 e8 is 1000 with no reason.
const CLOSE_1000 = '880203e8'

for (const [name, small, deflate] of [
  ['small frames', true, false],
  ['the general decoder', false, false],
  ['permessage-deflate', true, true],
] as const) {
  test(`WsConnection :: with ${name}, nothing follows the server's close frame (answer, echo, send, broadcast)`, async () => {
    const platform: Platform<MemorySocket> = deflate ? { ...memoryPlatform<MemorySocket>(), deflate: () => identity } : memoryPlatform<MemorySocket>()
    const engine = createEngine(
      {
        ...(deflate ? { perMessageDeflate: { threshold: 1000 } } : {}),
        routes: [
          onMessage((message, ctx) => {
            if (message._tag !== 'Text') return undefined
            if (message.text === 'bye') {
              ctx.disconnectClient()
              ctx.sendRaw(rawText('sent'))
              ctx.broadcastRaw(rawText('all'))
            }
            return message
          }),
        ],
      },
      platform,
      { smallFrames: small },
    )
    const socket: MemorySocket = { out: [], ended: false, closed: false }
    const client = engine.accept(socket)
    assert.ok(client !== undefined)
    client.receiver.receive(utf8(`${UPGRADE}${deflate ? 'Sec-WebSocket-Extensions: permessage-deflate\r\n' : ''}\r\n`))
    await tick()
    socket.out = []
    // "hi" echoed, then "bye": the close, and nothing after it (neither its echo nor what
    // its handler sent); "after", in the same chunk, is not dispatched.
    client.receiver.receive(new Uint8Array([...textFrame('hi'), ...textFrame('bye'), ...textFrame('after')]))
    await tick()
    engine.handle.broadcastRaw(rawText('later'))
    engine.handle.sendRaw(client.id, rawText('later'))
    await tick()
    assert.is(socket.out.map(hex).join(''), '81026869' + CLOSE_1000)
    assert.is(socket.ended, false) // the client's close frame is awaited (RFC 6455 §7.1.1)
    const closing = engine.handle.close()
    engine.closed(client)
    await closing
  })
}

test.run()

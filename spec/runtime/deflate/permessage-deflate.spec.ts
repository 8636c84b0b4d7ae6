import * as E from 'fp-ts/lib/Either.js'
import { constants, deflateRawSync, inflateRawSync } from 'node:zlib'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_DEFLATE_CONFIG, type DeflateConfig } from '../../../lib/core/ws/extensions/deflate-config.js'
import type { DeflateParams } from '../../../lib/core/ws/extensions/deflate-params.js'
import type { DeflateCodec, MessageDecompressor } from '../../../lib/core/ws/extensions/message-codec.js'
import type { WsError } from '../../../lib/core/ws/ws-error.js'
import { createPerMessageDeflate } from '../../../lib/runtime/deflate/permessage-deflate.js'
import { hex, toHex, utf8 } from '../../core/ws/hex.js'
import { wsPeer } from './ws-per-message-deflate.js'

const CONFIG: DeflateConfig = { ...DEFAULT_DEFLATE_CONFIG, enabled: true }
const NO_TAKEOVER: DeflateParams = { serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 15, clientMaxWindowBits: 15 }
const TAKEOVER: DeflateParams = { serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15 }

// Runs a spec with a fresh codec, closed afterwards.
const withCodec =
  (body: (codec: DeflateCodec) => Promise<void>, config: DeflateConfig = CONFIG) =>
  async (): Promise<void> => {
    const codec = createPerMessageDeflate(config)
    try {
      await body(codec)
    } finally {
      codec.close()
    }
  }

// zlib hands out Buffers; the specs compare plain bytes.
const plain = (bytes: Uint8Array): Uint8Array => new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length)

const inflated = async (decompressor: MessageDecompressor, payload: Uint8Array, max = 1 << 20): Promise<Uint8Array> => {
  const out = await decompressor.decompress(payload, max)
  if (E.isLeft(out)) throw new Error(`unexpected ${out.left._tag}`)
  return plain(out.right)
}

const failure = async (decompressor: MessageDecompressor, payload: Uint8Array, max = 1 << 20): Promise<WsError> => {
  const out = await decompressor.decompress(payload, max)
  if (E.isRight(out)) throw new Error('expected an error')
  return out.left
}

// Text that compresses like chat JSON: repetitive keys, varying values.
const jsonish = (n: number, seed = 1): Uint8Array => {
  let text = ''
  for (let i = 0; text.length < n; i++) text += `{"event":"chat","data":{"room":"r${(i * seed) % 7}","n":${i * 31 + seed},"text":"message ${(i * 7919) % 1000}"}},`
  return utf8(text.slice(0, n))
}

// Compression (RFC 7692 §7.2.1).

test('compress :: RFC 7692 §7.2.3.1 "Hello" is f2 48 cd c9 c9 07 00, the tail removed', withCodec(async (codec) => {
  assert.is(toHex(await codec.createCompressor(TAKEOVER).compress(utf8('Hello'))), 'f2 48 cd c9 c9 07 00')
  assert.is(toHex(await codec.createCompressor(NO_TAKEOVER).compress(utf8('Hello'))), 'f2 48 cd c9 c9 07 00')
}))

test('compress :: RFC 7692 §7.2.3.2 with context takeover the second "Hello" is f2 00 11 00 00', withCodec(async (codec) => {
  // "If the endpoint [...] uses context takeover, the second "Hello" is compressed into
  // 0xf2 0x00 0x11 0x00 0x00": a back-reference into the first message.
  const compressor = codec.createCompressor(TAKEOVER)
  const first = await compressor.compress(utf8('Hello'))
  const second = await compressor.compress(utf8('Hello'))
  assert.equal([toHex(first), toHex(second)], ['f2 48 cd c9 c9 07 00', 'f2 00 11 00 00'])
}))

test('compress :: without context takeover every "Hello" is the same 7 bytes', withCodec(async (codec) => {
  const compressor = codec.createCompressor(NO_TAKEOVER)
  const out = await Promise.all([1, 2, 3].map(() => compressor.compress(utf8('Hello'))))
  assert.equal(out.map(toHex), ['f2 48 cd c9 c9 07 00', 'f2 48 cd c9 c9 07 00', 'f2 48 cd c9 c9 07 00'])
  const message = jsonish(4096)
  const a = await compressor.compress(message)
  const b = await compressor.compress(message)
  assert.equal(plain(a), plain(b), 'identical output for a repeated message')
  const own = codec.createCompressor(TAKEOVER)
  const c = await own.compress(message)
  const d = await own.compress(message)
  assert.equal(plain(c), plain(a), 'the first message compresses alike either way')
  assert.ok(d.length < c.length / 10, `with takeover a repeat is a back-reference (${d.length} bytes against ${c.length})`)
}))

test('compress :: an empty message is the single byte 00 (RFC 7692 §7.2.3.6), also twice in a row', withCodec(async (codec) => {
  for (const params of [TAKEOVER, NO_TAKEOVER]) {
    const compressor = codec.createCompressor(params)
    assert.equal([toHex(await compressor.compress(new Uint8Array(0))), toHex(await compressor.compress(new Uint8Array(0)))], ['00', '00'])
  }
}))

test('compress :: output inflates with plain zlib once 00 00 ff ff is put back', withCodec(async (codec) => {
  const message = jsonish(50_000)
  const payload = await codec.createCompressor(NO_TAKEOVER).compress(message)
  assert.ok(payload.length < message.length / 3, `compressed to ${payload.length} bytes`)
  const restored = inflateRawSync(Buffer.concat([payload, hex('00 00 ff ff')]), { finishFlush: constants.Z_SYNC_FLUSH })
  assert.equal(plain(restored), message)
}))

test('compress :: a window of 8 bits (zlib runs 9) inflates with an 8-bit window (RFC 7692 §7.1.2.1)', withCodec(async (codec) => {
  const compressor = codec.createCompressor({ ...TAKEOVER, serverMaxWindowBits: 8 })
  const peer = wsPeer({ server_max_window_bits: ['8'] })
  for (const seed of [1, 2, 3]) {
    const message = jsonish(20_000, seed)
    assert.equal(plain(await peer.decompress(await compressor.compress(message))), message)
  }
  peer.close()
}))

test('compress :: memLevel and level are applied (level 0 stores, 1 and 9 compress)', withCodec(async (codec) => {
  const message = jsonish(8192)
  const stored = await createPerMessageDeflate({ ...CONFIG, level: 0 }).createCompressor(NO_TAKEOVER).compress(message)
  assert.ok(stored.length > message.length, 'level 0: stored blocks, a little bigger')
  const small = await createPerMessageDeflate({ ...CONFIG, level: 9, memLevel: 1 }).createCompressor(NO_TAKEOVER).compress(message)
  assert.ok(small.length < message.length / 3)
  assert.equal(await inflated(codec.createDecompressor(NO_TAKEOVER), small), message)
}))

// Decompression (RFC 7692 §7.2.2), the RFC's examples byte for byte.

test('decompress :: RFC 7692 §7.2.3.1 f2 48 cd c9 c9 07 00 is "Hello"', withCodec(async (codec) => {
  for (const params of [TAKEOVER, NO_TAKEOVER]) assert.equal(await inflated(codec.createDecompressor(params), hex('f2 48 cd c9 c9 07 00')), utf8('Hello'))
}))

test('decompress :: RFC 7692 §7.2.3.2 the second "Hello" needs the first one\'s window', withCodec(async (codec) => {
  const own = codec.createDecompressor(TAKEOVER)
  assert.equal(await inflated(own, hex('f2 48 cd c9 c9 07 00')), utf8('Hello'))
  assert.equal(await inflated(own, hex('f2 00 11 00 00')), utf8('Hello'))
  // Without context takeover the window is gone: the back-reference points before the start.
  const shared = codec.createDecompressor(NO_TAKEOVER)
  assert.equal(await inflated(shared, hex('f2 48 cd c9 c9 07 00')), utf8('Hello'))
  assert.equal(await failure(shared, hex('f2 00 11 00 00')), { _tag: 'InvalidCompressedData', closeCode: 1007, reason: 'invalid compressed data' })
}))

test('decompress :: RFC 7692 §7.2.3.3 a DEFLATE block with no compression', withCodec(async (codec) => {
  assert.equal(await inflated(codec.createDecompressor(TAKEOVER), hex('00 05 00 fa ff 48 65 6c 6c 6f 00')), utf8('Hello'))
}))

test('decompress :: RFC 7692 §7.2.3.4 a DEFLATE block with BFINAL set, then a fresh inflater', withCodec(async (codec) => {
  const own = codec.createDecompressor(TAKEOVER)
  assert.equal(await inflated(own, hex('f3 48 cd c9 c9 07 00 00')), utf8('Hello'))
  // zlib inflates nothing after a final block; the next message gets a new stream.
  assert.equal(await inflated(own, hex('f2 48 cd c9 c9 07 00')), utf8('Hello'))
}))

test('decompress :: RFC 7692 §7.2.3.5 two DEFLATE blocks in one message', withCodec(async (codec) => {
  assert.equal(await inflated(codec.createDecompressor(NO_TAKEOVER), hex('f2 48 05 00 00 00 ff ff ca c9 c9 07 00')), utf8('Hello'))
}))

test('decompress :: RFC 7692 §7.2.3.6 the single byte 00 is the empty message', withCodec(async (codec) => {
  assert.equal(await inflated(codec.createDecompressor(TAKEOVER), hex('00')), new Uint8Array(0))
  assert.equal(await inflated(codec.createDecompressor(NO_TAKEOVER), hex('')), new Uint8Array(0))
}))

test('decompress :: bytes that are not DEFLATE are 1007, and the next message still inflates', withCodec(async (codec) => {
  for (const params of [TAKEOVER, NO_TAKEOVER]) {
    const decompressor = codec.createDecompressor(params)
    assert.equal(await failure(decompressor, hex('ff ff ff ff')), { _tag: 'InvalidCompressedData', closeCode: 1007, reason: 'invalid compressed data' })
    assert.equal(await inflated(decompressor, hex('f2 48 cd c9 c9 07 00')), utf8('Hello'))
  }
}))

test('decompress :: a zip bomb stops at the limit, the rest never inflated (1009)', withCodec(async (codec) => {
  // 16 MiB of zeros deflate to about 16 KiB.
  const bomb = deflateRawSync(Buffer.alloc(16 << 20), { finishFlush: constants.Z_SYNC_FLUSH }).subarray(0, -4)
  assert.ok(bomb.length < 20_000)
  const limit = 256 * 1024
  for (const params of [TAKEOVER, NO_TAKEOVER]) {
    const decompressor = codec.createDecompressor(params)
    const err = await failure(decompressor, bomb, limit)
    if (err._tag !== 'MessageTooBig') throw new Error(`expected MessageTooBig, got ${err._tag}`)
    assert.is(err.closeCode, 1009)
    assert.is(err.limit, limit)
    // zlib hands its output over 16 KiB at a time: stopped within one chunk of the limit.
    assert.ok(err.size > limit && err.size <= limit + 16 * 1024, `stopped at ${err.size} bytes of 16 MiB`)
    assert.equal(await inflated(decompressor, hex('f2 48 cd c9 c9 07 00')), utf8('Hello'), 'a fresh inflater afterwards')
  }
}))

test('decompress :: a message exactly at the limit inflates', withCodec(async (codec) => {
  const message = jsonish(100_000)
  const payload = await codec.createCompressor(NO_TAKEOVER).compress(message)
  assert.equal(await inflated(codec.createDecompressor(NO_TAKEOVER), payload, message.length), message)
  assert.is((await failure(codec.createDecompressor(NO_TAKEOVER), payload, message.length - 1))._tag, 'MessageTooBig')
}))

test('decompress :: a window of 8 bits', withCodec(async (codec) => {
  const peer = wsPeer({ client_max_window_bits: ['8'] })
  const decompressor = codec.createDecompressor({ ...TAKEOVER, clientMaxWindowBits: 8 })
  for (const seed of [4, 5]) {
    const message = jsonish(10_000, seed)
    assert.equal(await inflated(decompressor, await peer.compress(message)), message)
  }
  peer.close()
}))

// Against ws's own PerMessageDeflate, an independent implementation, both ways.

test('codec ⇄ ws :: context takeover both ways, window bits 10 and 15', withCodec(async (codec) => {
  for (const [bits, answer] of [
    [15, {}],
    [10, { server_max_window_bits: ['10'], client_max_window_bits: ['10'] }],
  ] as const) {
    const params = { ...TAKEOVER, serverMaxWindowBits: bits, clientMaxWindowBits: bits }
    const peer = wsPeer(answer)
    const compressor = codec.createCompressor(params)
    const decompressor = codec.createDecompressor(params)
    for (let i = 0; i < 6; i++) {
      const message = jsonish(500 + i * 900, i)
      assert.equal(plain(await peer.decompress(await compressor.compress(message))), message, `server → ws, message ${i}`)
      assert.equal(await inflated(decompressor, await peer.compress(message)), message, `ws → server, message ${i}`)
    }
    compressor.close()
    decompressor.close()
    peer.close()
  }
}))

test('codec ⇄ ws :: no context takeover both ways', withCodec(async (codec) => {
  const peer = wsPeer({ server_no_context_takeover: [true], client_no_context_takeover: [true] })
  const compressor = codec.createCompressor(NO_TAKEOVER)
  const decompressor = codec.createDecompressor(NO_TAKEOVER)
  for (let i = 0; i < 6; i++) {
    const message = jsonish(300 + i * 1500, i + 10)
    const fromWs = await peer.compress(message)
    assert.equal(await inflated(decompressor, fromWs), message, `ws → server, message ${i}`)
    const ours = await compressor.compress(message)
    assert.equal(plain(await peer.decompress(ours)), message, `server → ws, message ${i}`)
    assert.equal(plain(ours), plain(fromWs), 'the same zlib settings give the same bytes')
  }
  peer.close()
}))

// Order, sharing, closing.

test('codec :: results come in the order of the calls, from a shared pool of streams', withCodec(async (codec) => {
  const compressor = codec.sharedCompressor(15)
  // A large message first: the small ones, on other streams, finish before it.
  const messages = [jsonish(2 << 20, 3), ...Array.from({ length: 20 }, (_, i) => jsonish(100 + i * 10, i))]
  const settled: number[] = []
  const outputs = await Promise.all(messages.map((m, i) => compressor.compress(m).then((out) => (settled.push(i), out))))
  assert.equal(settled, messages.map((_, i) => i))
  const decompressor = codec.createDecompressor(NO_TAKEOVER)
  const restored = await Promise.all(outputs.map((payload) => inflated(decompressor, payload, 4 << 20)))
  assert.equal(restored, messages)
}))

test('codec :: a connection\'s own streams keep order too, with context takeover', withCodec(async (codec) => {
  const compressor = codec.createCompressor(TAKEOVER)
  const decompressor = codec.createDecompressor(TAKEOVER)
  const messages = Array.from({ length: 12 }, (_, i) => jsonish(200 + ((i * 997) % 3000), i % 3))
  const payloads = await Promise.all(messages.map((m) => compressor.compress(m)))
  assert.equal(await Promise.all(payloads.map((p) => inflated(decompressor, p))), messages)
}, { ...CONFIG, concurrency: 2 }))

test('codec :: connections with server_no_context_takeover share one compressor per window size', withCodec(async (codec) => {
  const a = codec.createCompressor(NO_TAKEOVER)
  assert.is(a, codec.createCompressor({ ...NO_TAKEOVER, clientNoContextTakeover: false }))
  assert.is(a, codec.sharedCompressor(15))
  assert.is.not(codec.sharedCompressor(10), a)
  assert.is.not(codec.createCompressor(TAKEOVER), codec.createCompressor(TAKEOVER))
  assert.is(codec.createDecompressor(NO_TAKEOVER), codec.createDecompressor(NO_TAKEOVER))
  assert.is.not(codec.createDecompressor(TAKEOVER), codec.createDecompressor(TAKEOVER))
  // Closing a shared one through a connection leaves it working for the others.
  a.close()
  codec.createDecompressor(NO_TAKEOVER).close()
  assert.is(toHex(await codec.sharedCompressor(15).compress(utf8('Hello'))), 'f2 48 cd c9 c9 07 00')
  assert.equal(await inflated(codec.createDecompressor(NO_TAKEOVER), hex('f2 48 cd c9 c9 07 00')), utf8('Hello'))
}))

test('codec :: close waits for what was already submitted, then refuses', withCodec(async (codec) => {
  const compressor = codec.createCompressor(TAKEOVER)
  const decompressor = codec.createDecompressor(TAKEOVER)
  const pending = [compressor.compress(utf8('Hello')), compressor.compress(utf8('Hello'))]
  const inflating = decompressor.decompress(hex('f2 48 cd c9 c9 07 00'), 100)
  compressor.close()
  decompressor.close()
  assert.equal((await Promise.all(pending)).map(toHex), ['f2 48 cd c9 c9 07 00', 'f2 00 11 00 00'])
  assert.equal(E.map(plain)(await inflating), E.right(utf8('Hello')))
  await compressor.compress(utf8('late')).then(
    () => assert.unreachable('a closed compressor compresses nothing'),
    (error: Error) => assert.match(error.message, /closed/),
  )
  // Closing before any use frees nothing and throws nothing.
  codec.createCompressor(TAKEOVER).close()
  codec.createDecompressor(TAKEOVER).close()
}))

test('codec :: close of the codec ends the shared pools', async () => {
  const codec = createPerMessageDeflate(CONFIG)
  const shared = codec.sharedCompressor(15)
  const last = shared.compress(utf8('Hello'))
  codec.close()
  assert.is(toHex(await last), 'f2 48 cd c9 c9 07 00')
  await shared.compress(utf8('Hello')).then(
    () => assert.unreachable('closed'),
    (error: Error) => assert.match(error.message, /closed/),
  )
})

test.run()

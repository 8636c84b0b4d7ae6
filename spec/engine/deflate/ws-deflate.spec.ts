import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { DeflateParams } from '../../../lib/core/ws/extensions/deflate-params.js'
import type { MessageCompressor, MessageDecompressor } from '../../../lib/core/ws/extensions/message-codec.js'
import { OPCODE } from '../../../lib/core/ws/frame.js'
import { closeFrame, pingFrame } from '../../../lib/core/ws/out-frame.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { invalidCompressedData, messageTooBig } from '../../../lib/core/ws/ws-error.js'
import { compressFrame } from '../../../lib/engine/deflate/compress-frame.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import { payloadOffset } from '../../../lib/core/ws/frame-header.js'
import { type DeflateHost, type DeflateShared, WsDeflate } from '../../../lib/engine/deflate/ws-deflate.js'
import { hex, toHex, utf8 } from '../../core/ws/hex.js'

interface Deferred<T> {
  readonly promise: Promise<T>
  resolve(value: T): void
  reject(error: unknown): void
}
const deferred = <T>(): Deferred<T> => {
  let resolve!: (value: T) => void
  let reject!: (error: unknown) => void
  const promise = new Promise<T>((res, rej) => {
    resolve = res
    reject = rej
  })
  return { promise, resolve, reject }
}
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

// A compressor whose jobs the test settles, in any order; its "compression" is the payload
// with a 0xcc byte in front, so a frame shows which message it carries.
const manualCompressor = () => {
  const jobs: Array<{ message: Uint8Array; done: Deferred<Uint8Array> }> = []
  let closed = 0
  const compressor: MessageCompressor = {
    compress(message) {
      const done = deferred<Uint8Array>()
      jobs.push({ message, done })
      return done.promise
    },
    close: () => void closed++,
  }
  const settle = (i: number): void => {
    const job = jobs[i]!
    job.done.resolve(Uint8Array.of(0xcc, ...job.message))
  }
  return { compressor, jobs, settle, closes: () => closed }
}

const noDecompressor: MessageDecompressor = { decompress: async (p) => E.right(p), close: () => undefined }

const setup = (options: { params?: Partial<DeflateParams>; threshold?: number; decompressor?: MessageDecompressor } = {}) => {
  const own = manualCompressor()
  const sharedJobs = manualCompressor()
  const written: string[] = []
  const failures: unknown[] = []
  let holds = 0
  const host: DeflateHost = {
    admit: (frame) => void written.push(toHex(frame)),
    hold: () => void holds++,
    compressionFailed: (error) => void failures.push(error),
  }
  const broadcasts: number[] = []
  const asked: string[] = []
  const shared: DeflateShared = {
    threshold: options.threshold ?? 4,
    frameLimits: { maxPayload: 100, requireMask: true, allowRsv1: true },
    compressor: () => {
      asked.push('compressor')
      return own.compressor
    },
    decompressor: () => {
      asked.push('decompressor')
      return options.decompressor ?? noDecompressor
    },
    broadcastFrame: (frame, at, bits) => {
      broadcasts.push(bits)
      return compressFrame(sharedJobs.compressor, frame, at)
    },
  }
  const params: DeflateParams = { serverNoContextTakeover: true, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15, ...options.params }
  const deflate = new WsDeflate(host, params, shared)
  return { deflate, own, sharedJobs, written, failures, broadcasts, asked, holds: () => holds }
}

const text = (s: string): Uint8Array => portableFrames.text(s)

test('payloadOffset :: 2, 4 or 10 bytes of header by the 7-bit length field', () => {
  assert.is(payloadOffset(hex('81 05 48 65 6c 6c 6f')), 2)
  assert.is(payloadOffset(text('x'.repeat(125))), 2)
  assert.is(payloadOffset(text('x'.repeat(126))), 4)
  assert.is(payloadOffset(text('x'.repeat(0x10000))), 10)
  assert.is(payloadOffset(hex('88 00')), 2)
})

test('compressFrame :: the payload compressed, RSV1 set, the opcode kept (RFC 7692 §7.2.3.1)', async () => {
  const hello: MessageCompressor = { compress: async () => hex('f2 48 cd c9 c9 07 00'), close: () => undefined }
  assert.is(toHex(await compressFrame(hello, hex('81 05 48 65 6c 6c 6f'), 2)), 'c1 07 f2 48 cd c9 c9 07 00')
  assert.is(toHex(await compressFrame(hello, portableFrames.binary(utf8('Hello')), 2)), 'c2 07 f2 48 cd c9 c9 07 00')
})

test('WsDeflate :: with nothing pending, small frames and control frames are written at once, uncompressed', () => {
  const { deflate, own, written } = setup()
  deflate.send(text('abc'), false)
  deflate.send(encodeFrameBytes(pingFrame()), false)
  assert.equal(written, ['81 03 61 62 63', '89 00'])
  assert.is(own.jobs.length, 0)
})

test('WsDeflate :: frames of threshold bytes and more are compressed; later frames wait, whatever settles first', async () => {
  const { deflate, own, written, holds } = setup()
  deflate.send(text('abcd'), false) // 4 bytes: at the threshold
  deflate.send(text('x'), false)
  deflate.send(text('efgh'), false)
  deflate.send(encodeFrameBytes(pingFrame()), false)
  assert.equal(written, [])
  assert.equal(own.jobs.map((j) => toHex(j.message)), ['61 62 63 64', '65 66 67 68'])
  own.settle(1)
  await tick()
  assert.equal(written, [])
  own.settle(0)
  await tick()
  assert.equal(written, ['c1 05 cc 61 62 63 64', '81 01 78', 'c1 05 cc 65 66 67 68', '89 00'])
  assert.ok(holds() > 0, 'frames ready together leave in one write')
  // The queue is empty again: the next small frame goes at once.
  deflate.send(text('y'), false)
  assert.equal(written.at(-1), '81 01 79')
})

test('WsDeflate :: a broadcast shares the compression with server_no_context_takeover, per window', async () => {
  const { deflate, own, sharedJobs, broadcasts, written } = setup({ params: { serverMaxWindowBits: 10 } })
  deflate.send(text('shared'), true)
  assert.equal([broadcasts, own.jobs.length, sharedJobs.jobs.length], [[10], 0, 1])
  sharedJobs.settle(0)
  await tick()
  assert.equal(written, ['c1 07 cc 73 68 61 72 65 64'])
})

test('WsDeflate :: with context takeover, a broadcast goes through the connection\'s own compressor', () => {
  const { deflate, own, broadcasts } = setup({ params: { serverNoContextTakeover: false } })
  deflate.send(text('own one'), true)
  assert.equal([broadcasts, own.jobs.length], [[], 1])
})

test('WsDeflate :: a close frame waits for the frames before it, and nothing follows it', async () => {
  const { deflate, own, written } = setup()
  const ends: string[] = []
  deflate.send(text('before'), false)
  deflate.send(encodeFrameBytes(closeFrame(1000, '')), false)
  deflate.whenSent(() => ends.push(`end after ${written.length}`))
  deflate.send(text('after'), false)
  deflate.send(text('a'), true)
  assert.equal([written, ends, own.jobs.length], [[], [], 1])
  own.settle(0)
  await tick()
  assert.equal(written, ['c1 07 cc 62 65 66 6f 72 65', '88 02 03 e8'])
  assert.equal(ends, ['end after 2'])
})

test('WsDeflate :: whenSent runs at once when nothing waits', () => {
  const { deflate } = setup()
  let ran = false
  deflate.whenSent(() => {
    ran = true
  })
  assert.ok(ran)
})

test('WsDeflate :: zlib failing: the host is told once, the frames behind are dropped, and so is what comes later', async () => {
  const { deflate, own, written, failures } = setup()
  deflate.send(text('first'), false)
  deflate.send(text('x'), false)
  own.jobs[0]!.done.reject(new Error('zlib broke'))
  await tick()
  assert.equal(written, [])
  assert.equal(failures.map((e) => (e as Error).message), ['zlib broke'])
  deflate.send(text('y'), false)
  assert.equal(written, [])
})

test('WsDeflate :: a rejection without a reason still counts as a failure', async () => {
  const { deflate, own, failures } = setup()
  deflate.send(text('first'), false)
  own.jobs[0]!.done.reject(undefined)
  await tick()
  assert.is(failures.length, 1)
})

test('WsDeflate :: inflate: inflating while it runs, text checked once inflated, errors passed on', async () => {
  const gate = deferred<E.Either<never, Uint8Array>>()
  let calls = 0
  const decompressor: MessageDecompressor = {
    decompress: (payload, max) => {
      calls++
      if (payload[0] === 0xee) return Promise.resolve(E.left(messageTooBig(max + 1, max)))
      if (payload[0] === 0xdd) return Promise.resolve(E.left(invalidCompressedData()))
      if (payload[0] === 0xbb) return Promise.resolve(E.right(Uint8Array.of(0xff)))
      return gate.promise
    },
    close: () => undefined,
  }
  const { deflate } = setup({ decompressor })
  const pending = deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('00') }, 10)
  assert.ok(deflate.inflating)
  gate.resolve(E.right(utf8('Hello')))
  assert.equal(await pending, E.right({ _tag: 'Text', text: 'Hello' }))
  assert.not.ok(deflate.inflating)
  const tooBig = await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('ee') }, 10)
  assert.ok(E.isLeft(tooBig) && tooBig.left.closeCode === 1009)
  const bad = await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('dd') }, 10)
  assert.ok(E.isLeft(bad) && bad.left.closeCode === 1007)
  const notUtf8 = await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('bb') }, 10)
  assert.ok(E.isLeft(notUtf8) && notUtf8.left._tag === 'InvalidUtf8' && notUtf8.left.closeCode === 1007)
  const binary = await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('bb') }, 10)
  assert.equal(binary, E.right({ _tag: 'Binary', data: Uint8Array.of(0xff) }))
  assert.is(calls, 5)
})

test('WsDeflate :: inflate: a decompressor that rejects leaves inflating false and rejects', async () => {
  const decompressor: MessageDecompressor = { decompress: () => Promise.reject(new Error('pool closed')), close: () => undefined }
  const { deflate } = setup({ decompressor })
  let error: unknown
  await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('00') }, 10).catch((e: unknown) => {
    error = e
  })
  assert.is((error as Error).message, 'pool closed')
  assert.not.ok(deflate.inflating)
})

test('WsDeflate :: an idle connection asks for no compressor and no inflater; each is asked for once, on first use', async () => {
  const { deflate, asked } = setup()
  deflate.send(text('abc'), false)
  assert.equal(asked, [])
  deflate.send(text('abcd'), false)
  deflate.send(text('efgh'), false)
  await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('00') }, 10)
  await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('00') }, 10)
  assert.equal(asked, ['compressor', 'decompressor'])
})

test('WsDeflate :: close frees the compressor and the decompressor it used, and stops sending', async () => {
  let decompressorClosed = false
  const { deflate, own, written } = setup({ decompressor: { decompress: async (p) => E.right(p), close: () => void (decompressorClosed = true) } })
  deflate.send(text('abcd'), false)
  await deflate.inflate({ _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('00') }, 10)
  deflate.close()
  assert.equal([own.closes(), decompressorClosed], [1, true])
  deflate.send(text('x'), false)
  assert.equal(written, [])
  assert.is(deflate.frameLimits.allowRsv1, true)
  setup().deflate.close() // nothing was made: nothing to free
  assert.is(deflate.params.serverMaxWindowBits, 15)
})

test.run()

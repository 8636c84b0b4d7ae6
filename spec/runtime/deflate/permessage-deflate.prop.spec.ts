/**
 * The whole receive path of permessage-deflate with real DEFLATE: messages compressed (by
 * this codec, or by ws as a client), framed with RSV1 on the first fragment, masked, the
 * stream cut anywhere, then decoded, assembled, inflated and checked: each message comes
 * back as it was sent, in order.
 */
import * as E from 'fp-ts/lib/Either.js'
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AssemblyState, assembleMessage, type Incoming, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { decodeFrame } from '../../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { DEFAULT_DEFLATE_CONFIG } from '../../../lib/core/ws/extensions/deflate-config.js'
import type { DeflateParams } from '../../../lib/core/ws/extensions/deflate-params.js'
import { inflatedMessage } from '../../../lib/core/ws/extensions/inflated-message.js'
import { type Frame, OPCODE } from '../../../lib/core/ws/frame.js'
import { createPerMessageDeflate } from '../../../lib/runtime/deflate/permessage-deflate.js'
import { feedChunks } from '../../support/feed.js'
import { concatBytes, utf8 } from '../../core/ws/hex.js'
import { wsPeer } from './ws-per-message-deflate.js'

interface Sent {
  readonly opcode: typeof OPCODE.TEXT | typeof OPCODE.BINARY
  readonly bytes: Uint8Array
  readonly cuts: readonly number[]
}

// Text that repeats itself (so it compresses and back-references), or any bytes.
const sentArb: fc.Arbitrary<Sent> = fc.oneof(
  fc.record({
    opcode: fc.constant(OPCODE.TEXT),
    bytes: fc.tuple(fc.string({ unit: 'binary', maxLength: 30 }), fc.nat({ max: 80 })).map(([s, n]) => utf8(s.repeat(n + 1))),
    cuts: fc.array(fc.nat(), { maxLength: 4 }),
  }),
  fc.record({ opcode: fc.constant(OPCODE.BINARY), bytes: fc.uint8Array({ maxLength: 3000 }), cuts: fc.array(fc.nat(), { maxLength: 4 }) }),
).map((s) => ({ ...s }))

const paramsArb: fc.Arbitrary<DeflateParams> = fc
  .record({ noContextTakeover: fc.boolean(), windowBits: fc.integer({ min: 8, max: 15 }) })
  .map(({ noContextTakeover, windowBits }) => ({
    serverNoContextTakeover: noContextTakeover,
    clientNoContextTakeover: noContextTakeover,
    serverMaxWindowBits: windowBits,
    clientMaxWindowBits: windowBits,
  }))

// The frames of one compressed message, RSV1 on the first (RFC 7692 §6.1), a pong between.
const framesOf = (opcode: number, payload: Uint8Array, cuts: readonly number[]): Frame[] => {
  const points = [...new Set(cuts.map((c) => c % (payload.length + 1)))].sort((a, b) => a - b)
  const bounds = [0, ...points, payload.length]
  const frames = bounds.slice(1).map((end, i): Frame => ({
    fin: i === bounds.length - 2,
    rsv1: i === 0,
    rsv2: false,
    rsv3: false,
    opcode: i === 0 ? opcode : OPCODE.CONTINUATION,
    payload: payload.subarray(bounds[i], end),
  }))
  if (frames.length > 1) frames.splice(1, 0, { fin: true, rsv1: false, rsv2: false, rsv3: false, opcode: OPCODE.PONG, payload: new Uint8Array(0) })
  return frames
}

test('permessage-deflate :: any messages compressed and framed, split at any byte, decode to themselves', async () => {
  const codec = createPerMessageDeflate({ ...DEFAULT_DEFLATE_CONFIG, enabled: true })
  await fc.assert(
    fc.asyncProperty(
      fc.array(sentArb, { minLength: 1, maxLength: 4 }),
      paramsArb,
      fc.boolean(),
      fc.uint8Array({ minLength: 4, maxLength: 4 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      async (sent, params, byWs, key, cuts) => {
        // The sender: this codec's compressor, or ws as a client with the same agreement.
        const peer = wsPeer({
          ...(params.clientNoContextTakeover ? { client_no_context_takeover: [true] } : {}),
          client_max_window_bits: [String(params.clientMaxWindowBits)],
        })
        const compressor = codec.createCompressor(params)
        const compress = byWs ? (m: Uint8Array) => peer.compress(m) : (m: Uint8Array) => compressor.compress(m)
        const payloads: Uint8Array[] = []
        for (const s of sent) payloads.push(await compress(s.bytes))
        peer.close()
        compressor.close()

        const stream = concatBytes(...sent.flatMap((s, i) => framesOf(s.opcode, payloads[i]!, s.cuts)).map((f) => encodeFrameBytes(f, key)))
        const points = [...new Set(cuts.map((c) => c % (stream.length + 1)))].sort((a, b) => a - b)
        const chunks = [0, ...points].map((from, i) => stream.subarray(from, [...points, stream.length][i]))
        const decoded = feedChunks((b) => decodeFrame(b, { maxPayload: 1 << 20, requireMask: true, allowRsv1: true }), chunks)
        assert.equal([decoded.error, decoded.leftover], [undefined, 0])

        // The receiver: assembly, then the inflater the agreement gives (the server's own for
        // the client's direction; what a client would use for the server's direction is the
        // same inflater with the same window and context rule).
        const decompressor = codec.createDecompressor(params)
        let state: AssemblyState = initialAssembly
        const received: Incoming[] = []
        for (const frame of decoded.values) {
          const step = assembleMessage(state, frame, { maxMessage: 1 << 20 })
          if (E.isLeft(step)) throw new Error(`unexpected ${step.left._tag}`)
          state = step.right.state
          const out = step.right.output
          if (out?._tag !== 'Compressed') continue
          const bytes = await decompressor.decompress(out.data, 1 << 20)
          if (E.isLeft(bytes)) throw new Error(`unexpected ${bytes.left._tag}`)
          const message = inflatedMessage(out, bytes.right)
          if (E.isLeft(message)) throw new Error('unexpected InvalidUtf8')
          // zlib hands out Buffers; compare plain bytes.
          const m = message.right
          received.push(m._tag === 'Binary' ? { _tag: 'Binary', data: new Uint8Array(m.data.buffer, m.data.byteOffset, m.data.length) } : m)
        }
        decompressor.close()
        assert.equal(
          received,
          sent.map((s): Incoming => (s.opcode === OPCODE.TEXT ? { _tag: 'Text', text: new TextDecoder().decode(s.bytes) } : { _tag: 'Binary', data: s.bytes })),
        )
      },
    ),
    { numRuns: 120 },
  )
  codec.close()
})

test.run()

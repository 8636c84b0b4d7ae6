import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeMultipart } from '../../../../lib/core/http/multipart/decode-multipart.js'
import { DEFAULT_MULTIPART_LIMITS } from '../../../../lib/core/http/multipart/multipart-limits.js'
import { bodyArb, buildBody, cutsArb } from './arbitraries.js'
import { feedMultipart, initial, splitAt } from './feed-multipart.js'

const enc = (text: string): Uint8Array => new TextEncoder().encode(text)

test('decodeMultipart :: any body built from random parts reads back the same parts under any chunking', () => {
  fc.assert(
    fc.property(
      bodyArb.chain((spec) => {
        const bytes = buildBody(spec)
        return fc.tuple(fc.constant(spec), fc.constant(bytes), cutsArb(bytes.length))
      }),
      ([spec, bytes, cuts]) => {
        const out = feedMultipart(initial(spec.boundary), splitAt(bytes, cuts))
        assert.is(out.error, undefined)
        assert.ok(out.ended)
        assert.equal(
          out.parts.map((p) => [p.head.name, p.head.filename, p.head.contentType, p.data]),
          spec.parts.map((p) => [p.name, p.filename, p.contentType ?? 'text/plain', p.data]),
        )
        // One byte at a time too, where the carried tail does the most work.
        if (bytes.length < 600) assert.equal(feedMultipart(initial(spec.boundary), splitAt(bytes, Array.from({ length: bytes.length }, (_, i) => i))), out)
      },
    ),
    { numRuns: 300 },
  )
})

// Bytes from an alphabet that reaches every phase: dashes, the boundary's letter, line ends, header text.
const noisyArb = fc
  .array(fc.oneof(fc.constantFrom('-', '--', 'b', '\r', '\n', '\r\n', ' ', '\t', ':', ';', '"', 'Content-Disposition: form-data; name="n"', 'filename*=UTF-8\'\'%', 'x'), fc.string({ maxLength: 3 })), { maxLength: 60 })
  .map((pieces) => enc(pieces.join('')))

test('decodeMultipart :: random bytes never throw and read the same under any chunking', () => {
  const limits = { ...DEFAULT_MULTIPART_LIMITS, maxPartHeaderBytes: 64, maxFieldBytes: 16, maxParts: 4 }
  fc.assert(
    fc.property(
      fc.oneof(noisyArb, fc.uint8Array({ maxLength: 200 })).chain((bytes) => fc.tuple(fc.constant(bytes), cutsArb(bytes.length))),
      ([bytes, cuts]) => {
        const whole = feedMultipart(initial('b', limits), [bytes])
        assert.equal(feedMultipart(initial('b', limits), splitAt(bytes, cuts)), whole)
      },
    ),
    { numRuns: 1000 },
  )
})

test('decodeMultipart :: a valid body with bytes changed, added or removed never throws and reads the same under any chunking', () => {
  fc.assert(
    fc.property(
      bodyArb.chain((spec) => {
        const bytes = buildBody(spec)
        return fc.tuple(
          fc.constant(spec.boundary),
          fc.constant(bytes),
          fc.array(fc.tuple(fc.nat(), fc.integer({ min: -1, max: 255 }), fc.boolean()), { minLength: 1, maxLength: 4 }),
          cutsArb(bytes.length + 4),
        )
      }),
      ([boundary, bytes, edits, cuts]) => {
        const mutated = [...bytes]
        for (const [at, value, insert] of edits) {
          const i = mutated.length === 0 ? 0 : at % mutated.length
          if (value < 0) mutated.splice(i, 1)
          else if (insert) mutated.splice(i, 0, value)
          else mutated[i] = value
        }
        const input = Uint8Array.from(mutated)
        const whole = feedMultipart(initial(boundary), [input])
        assert.equal(feedMultipart(initial(boundary), splitAt(input, cuts.filter((c) => c <= input.length))), whole)
      },
    ),
    { numRuns: 300 },
  )
})

test('decodeMultipart :: never throws when fed anything at all, in any phase', () => {
  fc.assert(
    fc.property(fc.array(fc.uint8Array({ maxLength: 40 }), { maxLength: 8 }), (chunks) => {
      let state = initial('b')
      for (const chunk of [enc('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n'), ...chunks]) {
        let input = chunk
        for (let guard = 0; guard < 1000; guard++) {
          const r = decodeMultipart(state, input)
          if (r._tag === 'Left') return
          state = r.right.state
          if (r.right._tag === 'NeedMore') break
          input = r.right.rest
        }
      }
    }),
    { numRuns: 500 },
  )
})

test.run()

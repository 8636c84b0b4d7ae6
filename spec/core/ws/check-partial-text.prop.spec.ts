import * as E from 'fp-ts/lib/Either.js'
import * as fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import { continuePartialText, type PartialText, startPartialText } from '../../../lib/core/ws/check-partial-text.js'
import { encodeFrameBytes } from '../../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../../lib/core/ws/frame.js'

const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
const decodes = (bytes: Uint8Array): boolean => {
  try {
    strict.decode(bytes)
    return true
  } catch {
    return false
  }
}

// The reference: some ending of at most three bytes makes the prefix valid UTF-8.
const isValidPrefix = (prefix: Uint8Array): boolean => {
  if (decodes(prefix)) return true
  for (let extra = 1; extra <= 3; extra++) {
    for (let second = 0x80; second <= 0xbf; second++) {
      const candidate = new Uint8Array(prefix.length + extra)
      candidate.set(prefix)
      candidate.fill(0x80, prefix.length)
      candidate[prefix.length] = second
      if (decodes(candidate)) return true
    }
  }
  return false
}

// Mostly text (ASCII and multi-byte characters), with some bytes that break it.
const payload = fc
  .array(
    fc.oneof(
      { weight: 6, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }).map((s) => [...new TextEncoder().encode(s)]) },
      { weight: 1, arbitrary: fc.array(fc.integer({ min: 0x80, max: 0xff }), { minLength: 1, maxLength: 2 }) },
    ),
    { maxLength: 20 },
  )
  .map((parts) => Uint8Array.from(parts.flat()))

test('checkPartialText.prop :: fails on exactly the first read whose bytes can no longer be UTF-8', () => {
  fc.assert(
    fc.property(payload, fc.array(fc.nat(), { maxLength: 6 }), fc.uint8Array({ minLength: 4, maxLength: 4 }), (text, cutsRaw, key) => {
      const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload: text }, key)
      const header = frame.length - text.length
      const cuts = [...new Set(cutsRaw.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
      const ends = [...cuts, text.length]
      // Reads: the header plus the payload up to the first cut, then the payload between cuts.
      let scan: E.Either<unknown, PartialText> | undefined = startPartialText(frame.subarray(0, header + ends[0]!), initialAssembly)
      let failedAt = scan !== undefined && E.isLeft(scan) ? 0 : -1
      for (let i = 1; i < ends.length && failedAt < 0; i++) {
        if (scan === undefined || E.isLeft(scan)) break
        scan = continuePartialText(scan.right, frame.subarray(header + ends[i - 1]!, header + ends[i]!))
        if (E.isLeft(scan)) failedAt = i
      }
      const expected = ends.findIndex((end) => !isValidPrefix(text.subarray(0, end)))
      assert.is(failedAt, expected)
    }),
    { numRuns: 300 },
  )
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as fc from 'fast-check'
import { type BodyReader, readBodyPiece, startBody } from '../../../lib/core/http/read-body-piece.js'
import type { HttpError } from '../../../lib/core/http/http-error.js'
import type { Framing } from '../../../lib/core/http/parse-head.js'
import { concatBytes } from '../../support/bytes.js'

const enc = new TextEncoder()
const dec = new TextDecoder()
const LIMITS = { maxBody: 1 << 20, maxHeaderBytes: 64 }

interface Drained {
  readonly data: string
  readonly error: HttpError | undefined
  /** Bytes left after the body (the next request's), or undefined while it is not over. */
  readonly rest: string | undefined
}

// Plays the server: bytes arrive in `chunks`, each piece is passed on and its bytes dropped,
// a NeedMore waits for the next chunk (and must ask for more than is buffered).
const drain = (framing: Framing, chunks: readonly Uint8Array[], limits = LIMITS): Drained => {
  const start = startBody(framing, limits.maxBody)
  if (start._tag === 'Left') return { data: '', error: start.left, rest: undefined }
  let reader: BodyReader = start.right
  let buffered: Uint8Array = new Uint8Array(0)
  const data: Uint8Array[] = []
  for (const chunk of chunks) {
    buffered = concatBytes(buffered, chunk)
    for (;;) {
      if (reader._tag === 'Done') break
      const step = readBodyPiece(reader, buffered, limits)
      if (step._tag === 'Left') return { data: dec.decode(concatBytes(...data)), error: step.left, rest: undefined }
      if (step.right._tag === 'NeedMore') {
        assert.ok(step.right.atLeast > buffered.length, 'NeedMore asks for more than is buffered')
        break
      }
      const { data: piece, consumed, next } = step.right
      assert.ok(consumed > 0 || next._tag === 'Done', 'a piece consumes something')
      assert.ok(piece.length <= consumed)
      data.push(piece.slice())
      buffered = buffered.subarray(consumed)
      reader = next
    }
  }
  return { data: dec.decode(concatBytes(...data)), error: undefined, rest: reader._tag === 'Done' ? dec.decode(buffered) : undefined }
}

// The same outcome whole, byte by byte and split in two everywhere.
const everyWay = (framing: Framing, text: string, limits = LIMITS): Drained => {
  const bytes = enc.encode(text)
  const whole = drain(framing, [bytes], limits)
  const bytewise = drain(framing, Array.from(bytes, (b) => new Uint8Array([b])), limits)
  assert.equal(bytewise, whole, 'byte by byte')
  for (let i = 1; i < bytes.length; i++) assert.equal(drain(framing, [bytes.subarray(0, i), bytes.subarray(i)], limits), whole, `split at ${i}`)
  return whole
}

const LENGTH = (length: number): Framing => ({ _tag: 'Length', length })
const CHUNKED: Framing = { _tag: 'Chunked' }

test('readBodyPiece :: a Content-Length body is passed on as views, and what follows is left', () => {
  assert.equal(everyWay(LENGTH(5), 'helloGET /'), { data: 'hello', error: undefined, rest: 'GET /' })
  assert.equal(everyWay(LENGTH(0), 'x'), { data: '', error: undefined, rest: 'x' })
})

test('readBodyPiece :: a chunked body, with extensions and trailers, and what follows', () => {
  assert.equal(everyWay(CHUNKED, '3\r\nabc\r\n1;a=b\r\nd\r\n0\r\n\r\nNEXT'), { data: 'abcd', error: undefined, rest: 'NEXT' })
  assert.equal(everyWay(CHUNKED, 'A\r\n0123456789\r\n0\r\nX-T: 1\r\nY: 2\r\n\r\n'), { data: '0123456789', error: undefined, rest: '' })
})

test('readBodyPiece :: an unfinished body is not over', () => {
  assert.equal(drain(CHUNKED, [enc.encode('3\r\nab')]), { data: 'ab', error: undefined, rest: undefined })
  assert.equal(drain(LENGTH(4), [enc.encode('ab')]), { data: 'ab', error: undefined, rest: undefined })
})

test('readBodyPiece :: 413 as soon as a length passes the limit, before its data is passed on', () => {
  const small = { maxBody: 4, maxHeaderBytes: 64 }
  const tooLong = drain(LENGTH(5), [enc.encode('hello')], small)
  assert.is(tooLong.error?._tag, 'BodyTooLarge')
  assert.is(tooLong.error?.status, 413)
  const chunked = everyWay(CHUNKED, '3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n', small)
  assert.is(chunked.error?._tag, 'BodyTooLarge')
  assert.is(chunked.data, 'abc')
  // A size with more digits than any number holds is refused on its digits, not overflowed.
  assert.is(drain(CHUNKED, [enc.encode('fffffffffffffffffffffffff\r\n')]).error?._tag, 'BodyTooLarge')
})

test('readBodyPiece :: bad chunk framing is 400 invalid_chunk; bare LF and long trailers are refused', () => {
  for (const body of ['x\r\n', '3\r\nabcX\r\n', '3\nabc', '3;=\r\nabc\r\n0\r\n\r\n', '\r\n']) {
    const out = drain(CHUNKED, [enc.encode(body)])
    assert.is(out.error?._tag, 'InvalidChunk', body)
    assert.is(out.error?.status, 400)
  }
  assert.is(drain(CHUNKED, [enc.encode('0\r\nX: 1\n\r\n')]).error?._tag, 'BareLf')
  const long = drain(CHUNKED, [enc.encode(`0\r\nX: ${'y'.repeat(80)}\r\n\r\n`)])
  assert.is(long.error?._tag, 'HeadersTooLarge')
  assert.is(drain(CHUNKED, [enc.encode(`${'1'.repeat(5000)}`)]).error?._tag, 'InvalidChunk')
})

test('readBodyPiece :: a malformed trailer line is refused as decodeChunked refuses it (fuzz: chunked)', () => {
  // The input fuzz/harnesses/chunked.ts found: a control byte (0x11) in a trailer value.
  const found = enc.encode('3;x=y\r\nabc\r\n10\r\nU:woto__89qbcdef\r\n0\r\nT: \x11U:w:w\r\n\r\nGET')
  const out = drain(CHUNKED, [found])
  assert.is(out.error?._tag, 'InvalidHeader')
  assert.is(out.error?.status, 400)
  for (const trailer of ['X : 1', ' folded', ':v', 'X: a\rb', 'X: \x00']) {
    assert.is(drain(CHUNKED, [enc.encode(`0\r\n${trailer}\r\n\r\n`)]).error?.status, 400, JSON.stringify(trailer))
  }
  assert.is(drain(CHUNKED, [enc.encode('0\r\nX: \t v\xe9 \r\nY:\r\n\r\n')]).error, undefined)
})

test('readBodyPiece :: any body under any chunking reads back the same (property)', () => {
  fc.assert(
    fc.property(
      fc.array(fc.uint8Array({ minLength: 1, maxLength: 40 }), { maxLength: 6 }),
      fc.array(fc.integer({ min: 1, max: 17 }), { minLength: 1, maxLength: 8 }),
      fc.boolean(),
      (pieces, cuts, chunked) => {
        const body = concatBytes(...pieces)
        const wire = chunked
          ? concatBytes(...pieces.flatMap((p) => [enc.encode(`${p.length.toString(16)}\r\n`), p, enc.encode('\r\n')]), enc.encode('0\r\n\r\nZ'))
          : concatBytes(body, enc.encode('Z'))
        const chunks: Uint8Array[] = []
        for (let at = 0, i = 0; at < wire.length; i++) {
          const size = cuts[i % cuts.length] as number
          chunks.push(wire.subarray(at, at + size))
          at += size
        }
        const framing = chunked ? CHUNKED : LENGTH(body.length)
        const out = drain(framing, chunks)
        assert.is(out.error, undefined)
        assert.is(out.rest, 'Z')
        assert.equal(enc.encode(out.data), enc.encode(dec.decode(body)))
      },
    ),
    { numRuns: 300 },
  )
})

test('readBodyPiece :: random bytes never throw', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.boolean(), (bytes, chunked) => {
      drain(chunked ? CHUNKED : LENGTH(50), [bytes])
    }),
    { numRuns: 500 },
  )
})

test.run()

/**
 * A lent `ByteSearch` (the runtime's native substring search, `Platform.byteSearch`) in the
 * multipart parser: `findDelimiter` asks it instead of the skip table and answers the same,
 * `decodeMultipart` reads the same parts with it fed whole, byte by byte and split at every
 * offset, and `readMultipart` uses the one its body carries, with the delimiter cut across two
 * 64 KiB reads at every byte. The search lent here is a plain portable loop that counts its
 * calls (so these specs run in Bun and Deno too, and show it is asked). Portable: no node:*.
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ByteSearch } from '../../../../lib/core/byte-search.js'
import { compileDelimiter, findDelimiter } from '../../../../lib/core/http/multipart/delimiter.js'
import { DEFAULT_MULTIPART_LIMITS } from '../../../../lib/core/http/multipart/multipart-limits.js'
import { readMultipart } from '../../../../lib/core/http/multipart/read-multipart.js'
import { startMultipart } from '../../../../lib/core/http/multipart/start-multipart.js'
import { bodyArb, buildBody, cutsArb } from './arbitraries.js'
import { feedMultipart, feedMultipartAll, initial, splitAt } from './feed-multipart.js'

const enc = (text: string): Uint8Array => new TextEncoder().encode(text)
const dec = new TextDecoder()

// A naive search with Buffer.prototype.indexOf's answers, counting its calls.
const countingSearch = (): { search: ByteSearch; calls: () => number } => {
  let calls = 0
  const search: ByteSearch = (hay, needle, from) => {
    calls++
    const last = hay.length - needle.length
    for (let i = Math.max(0, from); i <= last; i++) {
      let j = 0
      while (j < needle.length && hay[i + j] === needle[j]) j++
      if (j === needle.length) return i
    }
    return -1
  }
  return { search, calls: () => calls }
}

const lent = (boundary: string, search: ByteSearch) => {
  const start = startMultipart(boundary, DEFAULT_MULTIPART_LIMITS, search)
  if (start._tag === 'Left') throw new Error(`boundary refused: ${boundary}`)
  return start.right
}

// Bytes rich in the delimiter's own pieces, so matches, near-matches and tails all occur.
const hayArb = fc
  .array(fc.constantFrom('\r', '\n', '-', '--', 'b', 'ab', '\r\n--', '\r\n--a', '\r\n--ab', 'x'), { maxLength: 40 })
  .map((pieces) => enc(pieces.join('')))

test('findDelimiter :: with a lent search, the same offset as the skip table, from every start', () => {
  fc.assert(
    fc.property(fc.constantFrom('ab', 'b', '--', 'a-b'), hayArb, (boundary, hay) => {
      const { search, calls } = countingSearch()
      const own = compileDelimiter(boundary)
      const borrowed = compileDelimiter(boundary, search)
      for (let from = 0; from <= hay.length + 1; from++) assert.is(findDelimiter(borrowed, hay, from), findDelimiter(own, hay, from), `from ${from}`)
      assert.is(calls(), hay.length + 2, 'the lent search is asked every time')
    }),
    { numRuns: 300 },
  )
})

test('decodeMultipart :: with a lent search, a body reads the same whole, byte by byte and split at every offset', () => {
  const b = '----WebKitFormBoundary7MA4YWxkTrZu0gW'
  const body = enc(
    `preamble\r\n--${b}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoli\r\n--${b.slice(0, -1)}day\r\n` +
      `--${b}\r\nContent-Disposition: form-data; name="photo"; filename="beach.png"\r\nContent-Type: image/png\r\n\r\n\r\n--${b.slice(0, 9)}\r\n\r\n` +
      `--${b}--\r\nepilogue`,
  )
  const { search, calls } = countingSearch()
  const withSearch = feedMultipartAll(lent(b, search), body)
  assert.ok(calls() > 0, 'the lent search is asked')
  assert.equal(withSearch, feedMultipartAll(initial(b), body))
  assert.is(withSearch.error, undefined)
  assert.equal(withSearch.parts.map((p) => [p.head.name, dec.decode(p.data)]), [
    ['title', `Holi\r\n--${b.slice(0, -1)}day`],
    ['photo', `\r\n--${b.slice(0, 9)}\r\n`],
  ])
})

test('decodeMultipart :: with a lent search, any random body reads back its parts under any chunking', () => {
  fc.assert(
    fc.property(
      bodyArb.chain((spec) => {
        const bytes = buildBody(spec)
        return fc.tuple(fc.constant(spec), fc.constant(bytes), cutsArb(bytes.length))
      }),
      ([spec, bytes, cuts]) => {
        const out = feedMultipart(lent(spec.boundary, countingSearch().search), splitAt(bytes, cuts))
        assert.equal(out, feedMultipart(initial(spec.boundary), splitAt(bytes, cuts)))
        assert.is(out.error, undefined)
      },
    ),
    { numRuns: 200 },
  )
})

test('readMultipart :: the body\'s byteSearch finds the delimiters, cut across two 64 KiB reads at every byte', async () => {
  const B = 'XyZ-boundary'
  const data = 'ab\r\n--XyZ-boundarX\r\n-'.repeat(6000)
  const text = `--${B}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n${data}\r\n` +
    `--${B}\r\nContent-Disposition: form-data; name="after"\r\n\r\nyes\r\n--${B}--\r\n`
  const body = enc(text)
  const dataEnd = text.indexOf(`\r\n--${B}\r\n`)
  for (let extra = 0; extra <= B.length + 6; extra++) {
    const cuts = [65536, dataEnd + extra].sort((x, y) => x - y)
    async function* pieces(): AsyncGenerator<Uint8Array> {
      let from = 0
      for (const cut of [...cuts, body.length]) {
        if (cut > from) yield body.slice(from, cut)
        from = Math.max(from, cut)
      }
    }
    const { search, calls } = countingSearch()
    const seen: string[] = []
    const source = Object.assign(pieces(), { byteSearch: search })
    for await (const part of readMultipart({ headerMap: new Map([['content-type', `multipart/form-data; boundary=${B}`]]), body: source })) {
      if (part.kind === 'field') seen.push(`${part.name}=${part.value}`)
      else {
        let got = ''
        for await (const chunk of part.data) got += dec.decode(chunk, { stream: true })
        assert.ok(got === data, `the file reads back whole, the delimiter cut after ${extra} bytes`)
        seen.push(`file ${part.filename}`)
      }
    }
    assert.equal(seen, ['file big.bin', 'after=yes'])
    assert.ok(calls() >= 3, 'the lent search is asked')
  }
})

test.run()

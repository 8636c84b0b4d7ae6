import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { decodeMultipart } from '../../../../lib/core/http/multipart/decode-multipart.js'
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from '../../../../lib/core/http/multipart/multipart-limits.js'
import { feedMultipartAll, initial, type MultipartOutcome } from './feed-multipart.js'

const enc = (text: string): Uint8Array => new TextEncoder().encode(text)
const dec = (bytes: Uint8Array): string => new TextDecoder().decode(bytes)

/** Reads a body (given as text, CRLFs written out) every way, and returns the outcome. */
const read = (boundary: string, body: string | Uint8Array, limits: Partial<MultipartLimits> = {}): MultipartOutcome =>
  feedMultipartAll(initial(boundary, { ...DEFAULT_MULTIPART_LIMITS, ...limits }), typeof body === 'string' ? enc(body) : body)

/** The parts of a body that reads without error, as [name, filename, contentType, data]. */
const partsOf = (boundary: string, body: string | Uint8Array, limits: Partial<MultipartLimits> = {}) => {
  const out = read(boundary, body, limits)
  assert.is(out.error, undefined, `unexpected error ${out.error?._tag}`)
  assert.ok(out.ended)
  return out.parts.map((p) => [p.head.name, p.head.filename, p.head.contentType, dec(p.data)])
}

/** The error a body fails with: [tag, status, reason]. */
const errorOf = (boundary: string, body: string | Uint8Array, limits: Partial<MultipartLimits> = {}) => {
  const out = read(boundary, body, limits)
  assert.ok(out.error !== undefined, 'expected an error')
  return [out.error?._tag, out.error?.status, out.error?.reason]
}

const field = (b: string, name: string, value: string) => `--${b}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`

test('decodeMultipart :: a body as Chrome writes it: a field, a file, an empty file input', () => {
  const b = '----WebKitFormBoundary7MA4YWxkTrZu0gW'
  const body =
    `--${b}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="photo"; filename="beach.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG\r\n\x1a\n\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="more"; filename=""\r\nContent-Type: application/octet-stream\r\n\r\n\r\n` +
    `--${b}--\r\n`
  assert.equal(partsOf(b, body), [
    ['title', undefined, 'text/plain', 'Holiday'],
    ['photo', 'beach.png', 'image/png', '\u0089PNG\r\n\u001a\n'],
    ['more', '', 'application/octet-stream', ''],
  ])
})

test('decodeMultipart :: a body as Firefox writes it (long dash boundary, UTF-8 filename as raw octets)', () => {
  const b = '---------------------------9051914041544843365972754266'
  const body =
    `--${b}\r\nContent-Disposition: form-data; name="text"\r\n\r\ntext default\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="file1"; filename="résumé €.txt"\r\nContent-Type: text/plain\r\n\r\nContent of a.txt.\r\n\r\n` +
    `--${b}--\r\n`
  assert.equal(partsOf(b, body), [
    ['text', undefined, 'text/plain', 'text default'],
    ['file1', 'résumé €.txt', 'text/plain', 'Content of a.txt.\r\n'],
  ])
})

test('decodeMultipart :: a body as curl -F writes it', () => {
  const b = '------------------------d74496d66958873e'
  const body =
    `--${b}\r\nContent-Disposition: form-data; name="user"\r\n\r\nada\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="upload"; filename="notes.txt"\r\nContent-Type: text/plain\r\n\r\nline 1\nline 2\n\r\n` +
    `--${b}--\r\n`
  assert.equal(partsOf(b, body), [
    ['user', undefined, 'text/plain', 'ada'],
    ['upload', 'notes.txt', 'text/plain', 'line 1\nline 2\n'],
  ])
})

test('decodeMultipart :: quoted names: browser %22 %0D %0A, backslash-escaped quote and backslash, other backslashes kept, ; inside quotes', () => {
  const b = 'xyz'
  const body =
    `--${b}\r\nContent-Disposition: form-data; name="a%22b"; filename="say %22hi%22%0D%0A.txt"\r\n\r\n1\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="q\\"x\\\\y"; filename="C:\\dir\\f.txt"\r\n\r\n2\r\n` +
    `--${b}\r\nContent-Disposition: form-data; name="a;b=c"\r\n\r\n3\r\n` +
    `--${b}\r\ncontent-disposition: FORM-DATA;name=plain ; FILENAME = unquoted.bin\r\n\r\n4\r\n` +
    `--${b}--`
  assert.equal(partsOf(b, body), [
    ['a"b', 'say "hi"\r\n.txt', 'text/plain', '1'],
    ['q"x\\y', 'C:\\dir\\f.txt', 'text/plain', '2'],
    ['a;b=c', undefined, 'text/plain', '3'],
    ['plain', 'unquoted.bin', 'text/plain', '4'],
  ])
})

test('decodeMultipart :: filename* (RFC 8187) takes precedence over filename; one that cannot be read is ignored', () => {
  const b = 'B'
  const part = (params: string) => `--${b}\r\nContent-Disposition: form-data; name="f"; ${params}\r\n\r\nx\r\n`
  const body =
    part(`filename="euro.txt"; filename*=UTF-8''%E2%82%AC%20rates.txt`) +
    part(`filename*=utf-8'en'%C3%A9.txt; filename="e.txt"`) +
    part(`filename*=ISO-8859-1''%E9t%E9.txt`) +
    part(`filename="fallback.txt"; filename*=UTF-8''%FF.txt`) +
    part(`filename="fallback2.txt"; filename*=KOI8-R''%C1.txt`) +
    part(`filename*=UTF-8''only%2`) +
    `--${b}--`
  assert.equal(
    partsOf(b, body).map((p) => p[1]),
    ['€ rates.txt', 'é.txt', 'été.txt', 'fallback.txt', 'fallback2.txt', undefined],
  )
})

test('decodeMultipart :: empty field, empty file, a part with only its Content-Disposition', () => {
  const b = 'b'
  const body = `${field(b, 'empty', '')}--${b}\r\nContent-Disposition: form-data; name="f"; filename="zero"\r\n\r\n\r\n--${b}--`
  assert.equal(partsOf(b, body), [
    ['empty', undefined, 'text/plain', ''],
    ['f', 'zero', 'text/plain', ''],
  ])
})

test('decodeMultipart :: preamble and epilogue are ignored, whatever they hold', () => {
  const b = 'b'
  const body = `This is the preamble. x--b is not it\r\n-b neither\r\n\r\n${field(b, 'a', '1')}--${b}--\r\nepilogue --b\r\n--b\r\nContent-Disposition: form-data; name="late"\r\n\r\nno\r\n--b--`
  assert.equal(partsOf(b, body), [['a', undefined, 'text/plain', '1']])
})

test('decodeMultipart :: the first boundary at offset 0 or after an empty preamble line', () => {
  assert.equal(partsOf('b', `${field('b', 'a', '1')}--b--`), [['a', undefined, 'text/plain', '1']])
  assert.equal(partsOf('b', `\r\n${field('b', 'a', '1')}--b--`), [['a', undefined, 'text/plain', '1']])
})

test('decodeMultipart :: transport padding after boundary lines and after the close delimiter', () => {
  const body = `--b \t \r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b\t\r\nContent-Disposition: form-data; name="c"\r\n\r\n2\r\n--b--  \r\n`
  assert.equal(partsOf('b', body), [
    ['a', undefined, 'text/plain', '1'],
    ['c', undefined, 'text/plain', '2'],
  ])
})

test('decodeMultipart :: CR or LF alone, CRLF, and boundary look-alikes inside data are data', () => {
  const b = 'boundary'
  const values = ['\r', '\n', '\r\r\n', '\n\r', 'a\r\nb', '\r\n-', '\r\n--', '\r\n--bound', '\r\n--boundar', 'x--boundary', '--boundary', '\r--boundary', '\n--boundary', '\r\n-boundary', '\r\n--Boundary', '\r\r\n--bounda']
  const body = values.map((v, i) => field(b, `v${i}`, v)).join('') + `--${b}--`
  assert.equal(
    partsOf(b, body).map((p) => p[3]),
    values,
  )
})

test('decodeMultipart :: the raw header list keeps every line in order, names as received; contentType as sent', () => {
  const out = read('b', `--b\r\ncontent-type: text/csv; charset=utf-8\r\nX-Extra:  spaced value \t\r\nContent-Disposition: form-data; name="t"\r\n\r\nx\r\n--b--`)
  assert.equal(out.parts[0]?.head.headers, [
    ['content-type', 'text/csv; charset=utf-8'],
    ['X-Extra', 'spaced value'],
    ['Content-Disposition', 'form-data; name="t"'],
  ])
  assert.is(out.parts[0]?.head.contentType, 'text/csv; charset=utf-8')
})

test('decodeMultipart :: a header value that is not UTF-8 is read as ISO-8859-1', () => {
  const head = enc('--b\r\nContent-Disposition: form-data; name="n"; filename="')
  const tail = enc('.txt"\r\n\r\nx\r\n--b--')
  const body = new Uint8Array([...head, 0xe9, ...tail])
  assert.equal(
    read('b', body).parts.map((p) => p.head.filename),
    ['é.txt'],
  )
})

// Feeds `chunks` (views of `body`) in order: the state at the end, the file data as handed
// out (copied for the check), and how many of those bytes were not views of `body`.
const feedViews = (boundary: string, body: Uint8Array, chunks: readonly Uint8Array[]): { state: ReturnType<typeof initial>; pieces: Uint8Array[]; copied: number } => {
  let state = initial(boundary)
  const pieces: Uint8Array[] = []
  let copied = 0
  for (const chunk of chunks) {
    let input: Uint8Array = chunk
    for (;;) {
      const r = decodeMultipart(state, input)
      if (r._tag === 'Left') throw new Error(r.left._tag)
      state = r.right.state
      if (r.right._tag === 'NeedMore') break
      const v = r.right.value
      if (v._tag === 'PartData') {
        if (v.data.buffer !== body.buffer) copied += v.data.length
        pieces.push(v.data.slice())
      }
      input = r.right.rest
    }
  }
  return { state, pieces, copied }
}

test('decodeMultipart :: a long file split across chunks arrives as views of the chunks (no copy but the carried tail)', () => {
  const b = 'b'
  const data = new Uint8Array(10000).map((_, i) => (i * 7) & 0xff)
  const body = new Uint8Array([...enc(`--b\r\nContent-Disposition: form-data; name="f"; filename="x"\r\n\r\n`), ...data, ...enc('\r\n--b--')])
  const { state, copied } = feedViews(b, body, [body.subarray(0, 4000), body.subarray(4000, 8000), body.subarray(8000)])
  assert.is(state.phase, 'Done')
  assert.is(copied, 0, 'chunks that do not end inside a possible delimiter are never copied')
})

// A large part's middle takes a fast step (data, nothing carried, no delimiter in the read):
// reads of 64 KiB, the close delimiter and boundary look-alikes cut between two reads at every
// byte, each read's data out as views (only a possible delimiter start at a read's end copied).
test('decodeMultipart :: 64 KiB reads: the delimiter and look-alikes split across two reads at every byte', () => {
  const b = 'XyZ-b0undary'
  const head = enc(`--${b}\r\nContent-Disposition: form-data; name="f"; filename="big.bin"\r\n\r\n`)
  const looks = ['\r\n--XyZ-b0undarX', '\r\n--XyZ-b0und', '\r\n-', '\r\r\n--XyZ', '--XyZ-b0undary', '\r\n--xyZ-b0undary'].map(enc)
  const data = new Uint8Array(3 * 65536).map((_, i) => (i * 31 + 7) & 0x7f)
  // The first three look-alikes end at, or straddle, the ends of the 64 KiB reads; the rest sit inside reads.
  const starts = [65536 - head.length - (looks[0] as Uint8Array).length, 2 * 65536 - head.length - 5, 3 * 65536 - head.length - 3, 1000, 70000, 140000]
  looks.forEach((look, i) => data.set(look, starts[i] as number))
  const tail = enc(`\r\n--${b}--\r\n`)
  const body = new Uint8Array([...head, ...data, ...tail])
  const dataEnd = head.length + data.length
  const cutsOf = (extra: number): number[] => [65536, 2 * 65536, 3 * 65536, dataEnd + extra].filter((c, i, all) => c > 0 && c < body.length && all.indexOf(c) === i).sort((x, y) => x - y)
  for (let extra = -2; extra <= tail.length; extra++) {
    const edges = [0, ...cutsOf(extra), body.length]
    const { state, pieces, copied } = feedViews(b, body, edges.slice(1).map((end, k) => body.subarray(edges[k] as number, end)))
    assert.is(state.phase, 'Done', `cut ${extra} bytes into the close delimiter`)
    const got = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0))
    pieces.reduce((n, p) => (got.set(p, n), n + p.length), 0)
    assert.ok(got.length === data.length && got.every((x, i) => x === data[i]), `the file reads back whole, cut ${extra} bytes into the close delimiter`)
    assert.ok(copied <= 4 * (tail.length + 2), `only possible delimiter starts are copied (${copied} bytes)`)
  }
})

test('decodeMultipart :: a body with look-alikes at every split, fed every way (whole, byte by byte, split at every offset)', () => {
  const b = 'q7'
  const data = '\r\n--q8\r\n--q\r\r\n--Q7\r\n-q7--q7\n--q7\r\n' + 'z'.repeat(40) + '\r\n--'
  const body = `--${b}\r\nContent-Disposition: form-data; name="f"; filename="a"\r\n\r\n${data}\r\n--${b}\r\nContent-Disposition: form-data; name="g"\r\n\r\n${data}\r\n--${b}--`
  assert.equal(
    partsOf(b, body).map((p) => p[3]),
    [data, data],
  )
})

// Errors: every tag with its status.

test('decodeMultipart :: InvalidDelimiter (400): a boundary line followed by anything but -- or padding and CRLF', () => {
  for (const body of ['--bX\r\n', `${field('b', 'a', '1')}--bb\r\n`, '--b \tx\r\n', '--b\rX', '--b-x', `${field('b', 'a', '1')}--b-\r\n`]) {
    assert.equal(errorOf('b', body), ['InvalidDelimiter', 400, 'invalid_delimiter'], JSON.stringify(body))
  }
})

test('decodeMultipart :: PartHeaderTooLarge (413) past maxPartHeaderBytes, padding and line end included; exactly at it is fine', () => {
  const section = 'Content-Disposition: form-data; name="a"\r\n\r\n' // 44 bytes
  assert.equal(partsOf('b', `--b\r\n${section}1\r\n--b--`, { maxPartHeaderBytes: 46 }), [['a', undefined, 'text/plain', '1']])
  assert.equal(errorOf('b', `--b\r\n${section}1\r\n--b--`, { maxPartHeaderBytes: 45 }), ['PartHeaderTooLarge', 413, 'part_header_too_large'])
  assert.equal(errorOf('b', `--b ${' '.repeat(40)}\r\n${section}1\r\n--b--`, { maxPartHeaderBytes: 60 }), ['PartHeaderTooLarge', 413, 'part_header_too_large'])
  assert.equal(errorOf('b', `--b\r\nX-Long: ${'x'.repeat(100)}`, { maxPartHeaderBytes: 64 }), ['PartHeaderTooLarge', 413, 'part_header_too_large'])
})

test('decodeMultipart :: MalformedPartHeader (400): no colon, obs-fold, bare LF or CR, space before colon, a control byte, a broken disposition', () => {
  for (const head of [
    'Content-Disposition form-data\r\n',
    'Content-Disposition: form-data; name="a"\r\n continued\r\n',
    'Content-Disposition: form-data; name="a"\nX: y\r\n',
    'X: a\rb\r\nContent-Disposition: form-data; name="a"\r\n',
    'Content-Disposition : form-data; name="a"\r\n',
    'X: a\x01b\r\nContent-Disposition: form-data; name="a"\r\n',
    'Content-Disposition: form-data; name="a\r\n',
    'Content-Disposition: form-data; name\r\n',
    'Content-Disposition: form-data name="a"\r\n',
  ]) {
    assert.equal(errorOf('b', `--b\r\n${head}\r\nx\r\n--b--`), ['MalformedPartHeader', 400, 'malformed_part_header'], JSON.stringify(head))
  }
})

test('decodeMultipart :: MissingPartName (400): no Content-Disposition, no name, another disposition type, no headers at all', () => {
  for (const head of ['Content-Type: text/plain\r\n', 'Content-Disposition: form-data; filename="a"\r\n', 'Content-Disposition: attachment; name="a"\r\n', '']) {
    assert.equal(errorOf('b', `--b\r\n${head}\r\nx\r\n--b--`), ['MissingPartName', 400, 'missing_part_name'], JSON.stringify(head))
  }
})

test('decodeMultipart :: TooManyParts, TooManyFields, TooManyFiles (413)', () => {
  const file = (name: string) => `--b\r\nContent-Disposition: form-data; name="${name}"; filename="${name}"\r\n\r\nx\r\n`
  const three = `${field('b', 'a', '1')}${file('f')}${field('b', 'c', '3')}--b--`
  assert.equal(partsOf('b', three, { maxParts: 3, maxFields: 2, maxFiles: 1 }).length, 3)
  assert.equal(errorOf('b', three, { maxParts: 2 }), ['TooManyParts', 413, 'too_many_parts'])
  assert.equal(errorOf('b', three, { maxFields: 1 }), ['TooManyFields', 413, 'too_many_fields'])
  assert.equal(errorOf('b', `${file('f')}${file('g')}--b--`, { maxFiles: 1 }), ['TooManyFiles', 413, 'too_many_files'])
  const out = read('b', three, { maxParts: 2 })
  assert.equal(out.parts.map((p) => p.head.name), ['a', 'f'], 'the parts before the one too many are read')
})

test('decodeMultipart :: FieldTooLarge and FileTooLarge (413), the name in the error; exactly at the limit is fine', () => {
  assert.equal(partsOf('b', `${field('b', 'a', '12345')}--b--`, { maxFieldBytes: 5 }).length, 1)
  assert.equal(errorOf('b', `${field('b', 'a', '123456')}--b--`, { maxFieldBytes: 5 }), ['FieldTooLarge', 413, 'field_too_large'])
  const file = (data: string) => `--b\r\nContent-Disposition: form-data; name="up"; filename="f"\r\n\r\n${data}\r\n--b--`
  assert.equal(partsOf('b', file('12345'), { maxFileBytes: 5, maxFieldBytes: 0 }).length, 1)
  assert.equal(errorOf('b', file('123456'), { maxFileBytes: 5 }), ['FileTooLarge', 413, 'file_too_large'])
  const out = read('b', file('1234567'), { maxFileBytes: 5 })
  assert.ok(out.error?._tag === 'FileTooLarge' && out.error.name === 'up' && out.error.limit === 5)
  assert.ok(out.error.message.includes('"up"'), out.error.message)
})

test('decodeMultipart :: TruncatedBody (400) when the input ends before the close delimiter', () => {
  for (const body of ['', 'just a preamble', '--b', '--b\r\n', '--b\r\nContent-Disposition: form-data; name="a"\r\n', `--b\r\nContent-Disposition: form-data; name="a"\r\n\r\nhalf`, `${field('b', 'a', '1')}`, `${field('b', 'a', '1')}--b`, `${field('b', 'a', '1')}--b-`]) {
    assert.equal(errorOf('b', body), ['TruncatedBody', 400, 'truncated_body'], JSON.stringify(body))
  }
  const out = read('b', `${field('b', 'a', '1')}--b\r\nContent-Disposition: form-data; name="c"\r\n\r\nhal\r\n-`)
  assert.equal(out.parts.map((p) => [p.head.name, dec(p.data)]), [['a', '1'], ['c', 'hal']], 'data seen before the end is reported; a possible delimiter start held back is not')
})

test('decodeMultipart :: after the close delimiter, chunks are epilogue: no event, no error', () => {
  const state = initial('b')
  const first = decodeMultipart(state, enc('--b--'))
  assert.ok(first._tag === 'Right' && first.right._tag === 'Parsed' && first.right.value._tag === 'End')
  if (first._tag !== 'Right') return
  const after = decodeMultipart(first.right.state, enc('--b\r\nContent-Disposition: form-data; name="x"\r\n\r\n'))
  assert.ok(after._tag === 'Right' && after.right._tag === 'NeedMore' && after.right.atLeast === 1)
})

test.run()

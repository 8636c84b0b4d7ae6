/**
 * `readMultipart`: the parts a handler reads in order from a body over time: fields as text,
 * files as streams (read, read whole, or skipped when not read), the epilogue drained, and
 * every failure thrown as `MultipartReadError` with its tag and status. Each body is fed
 * whole, byte by byte, and in pieces of 7. Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type FormPart, MultipartReadError, readMultipart } from '../../../../lib/core/http/multipart/read-multipart.js'
import type { MultipartLimits } from '../../../../lib/core/http/multipart/multipart-limits.js'

const enc = new TextEncoder()
const dec = new TextDecoder()
const B = 'XyZ-boundary'
const TYPE = `multipart/form-data; boundary=${B}`

const field = (name: string, value: string): string => `--${B}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
const file = (name: string, filename: string, data: string, type = 'application/octet-stream'): string =>
  `--${B}\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n${data}\r\n`
const close = `--${B}--\r\n`

// The body in pieces of `size` bytes, counting how many were pulled.
const source = (body: string, size: number, contentType = TYPE) => {
  const bytes = enc.encode(body)
  const probe = { pulled: 0, total: Math.ceil(bytes.length / size) }
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let at = 0; at < bytes.length; at += size) {
      probe.pulled++
      yield bytes.slice(at, at + size)
    }
  }
  return { req: { headerMap: new Map([['content-type', contentType]]), body: pieces() }, probe }
}

const SIZES = [Number.MAX_SAFE_INTEGER, 1, 7]

// Reads every part, files read with `data` (or `bytes()` when `whole`), as plain values.
const readAll = async (body: string, size: number, limits: Partial<MultipartLimits> = {}, whole = false) => {
  const { req, probe } = source(body, size)
  const parts: unknown[] = []
  for await (const part of readMultipart(req, limits)) {
    if (part.kind === 'field') parts.push(['field', part.name, part.value, part.contentType])
    else {
      let data: Uint8Array
      if (whole) data = await part.bytes()
      else {
        const chunks: number[] = []
        for await (const chunk of part.data) chunks.push(...chunk)
        data = Uint8Array.from(chunks)
      }
      parts.push(['file', part.name, part.filename, part.contentType, dec.decode(data)])
    }
  }
  return { parts, probe }
}

const failure = async (body: string, size: number, limits: Partial<MultipartLimits> = {}, contentType = TYPE): Promise<MultipartReadError> => {
  const { req } = source(body, size, contentType)
  try {
    for await (const part of readMultipart(req, limits)) if (part.kind === 'file') for await (const _ of part.data);
  } catch (error) {
    assert.ok(error instanceof MultipartReadError, String(error))
    return error as MultipartReadError
  }
  return assert.unreachable('throws') as never
}

test('readMultipart :: a file in 64 KiB reads, the delimiter split across two reads at every byte, read with one promise per read', async () => {
  const data = 'ab\r\n--XyZ-boundarX\r\n-'.repeat(6000)
  const body = enc.encode(file('f', 'big.bin', data) + field('after', 'yes') + close)
  const dataEnd = body.indexOf(0x0d, enc.encode(file('f', 'big.bin', '')).length - 2 + data.length)
  const delimiter = 4 + B.length
  for (let extra = 0; extra <= delimiter + 2; extra++) {
    const cuts = [65536, dataEnd + extra].sort((x, y) => x - y)
    async function* pieces(): AsyncGenerator<Uint8Array> {
      let from = 0
      for (const cut of [...cuts, body.length]) {
        if (cut > from) yield body.slice(from, cut)
        from = Math.max(from, cut)
      }
    }
    const seen: string[] = []
    for await (const part of readMultipart({ headerMap: new Map([['content-type', TYPE]]), body: pieces() })) {
      if (part.kind === 'field') seen.push(`${part.name}=${part.value}`)
      else {
        let text = ''
        const reader = part.data[Symbol.asyncIterator]()
        for (let step = await reader.next(); step.done !== true; step = await reader.next()) text += dec.decode(step.value, { stream: true })
        assert.ok(text === data, `the file reads back whole, the delimiter cut after ${extra} bytes`)
        seen.push(`file ${part.filename}`)
      }
    }
    assert.equal(seen, ['file big.bin', 'after=yes'])
  }
})

const FORM = field('title', 'Holiday é') + file('photo', 'beach.png', 'PNG\r\n--data', 'image/png') + file('empty', 'e.txt', '') + field('n', '') + close

for (const size of SIZES) {
  test(`readMultipart :: fields and files in order, read as streams (pieces of ${size})`, async () => {
    const { parts, probe } = await readAll(`preamble\r\n${FORM}epilogue bytes`, size)
    assert.equal(parts, [
      ['field', 'title', 'Holiday é', 'text/plain'],
      ['file', 'photo', 'beach.png', 'image/png', 'PNG\r\n--data'],
      ['file', 'empty', 'e.txt', 'application/octet-stream', ''],
      ['field', 'n', '', 'text/plain'],
    ])
    assert.is(probe.pulled, probe.total, 'the epilogue is drained')
  })

  test(`readMultipart :: files read whole with bytes() (pieces of ${size})`, async () => {
    const { parts } = await readAll(FORM, size, {}, true)
    assert.equal(parts[1], ['file', 'photo', 'beach.png', 'image/png', 'PNG\r\n--data'])
  })

  test(`readMultipart :: a file not read is skipped, the next part still read (pieces of ${size})`, async () => {
    const { req } = source(file('skip', 'a.bin', 'x'.repeat(100)) + field('after', 'yes') + file('half', 'b.bin', 'abcdefghij') + field('last', '1') + close, size)
    const seen: string[] = []
    for await (const part of readMultipart(req)) {
      if (part.kind === 'field') seen.push(`${part.name}=${part.value}`)
      else if (part.name === 'half') {
        for await (const chunk of part.data) {
          seen.push(`half:${dec.decode(chunk).slice(0, 1)}`)
          break
        }
      } else seen.push(`file ${part.filename}`)
    }
    assert.equal(seen, ['file a.bin', 'after=yes', 'half:a', 'last=1'])
  })

  test(`readMultipart :: errors thrown as MultipartReadError with tag and status (pieces of ${size})`, async () => {
    const cases: readonly [string, Partial<MultipartLimits>, string, number][] = [
      [field('a', 'x'.repeat(20)) + close, { maxFieldBytes: 10 }, 'FieldTooLarge', 413],
      [file('f', 'f.bin', 'y'.repeat(20)) + close, { maxFileBytes: 10 }, 'FileTooLarge', 413],
      [field('a', '1') + field('b', '2') + close, { maxParts: 1 }, 'TooManyParts', 413],
      [file('a', 'a', '1') + file('b', 'b', '2') + close, { maxFiles: 1 }, 'TooManyFiles', 413],
      [field('a', '1') + field('b', '2') + close, { maxFields: 1 }, 'TooManyFields', 413],
      [`--${B}\r\nContent-Disposition: form-data; name="a"\r\nX-Long: ${'h'.repeat(200)}\r\n\r\nv\r\n${close}`, { maxPartHeaderBytes: 100 }, 'PartHeaderTooLarge', 413],
      [field('a', 'cut short'), {}, 'TruncatedBody', 400],
      [`--${B}\r\nContent-Disposition: form-data\r\n\r\nv\r\n${close}`, {}, 'MissingPartName', 400],
    ]
    for (const [body, limits, tag, status] of cases) {
      const error = await failure(body, size, limits)
      assert.is(error.error._tag, tag)
      assert.is(error.status, status)
      assert.is(error.message, error.error.message)
      assert.is(error.name, 'MultipartReadError')
    }
  })
}

test('readMultipart :: a body that is not multipart, or has a bad boundary, fails before any read', async () => {
  const notMultipart = await failure(close, 1, {}, 'application/json')
  assert.equal([notMultipart.error._tag, notMultipart.status], ['NotMultipart', 415])
  const missing = await failure(close, 1, {}, 'multipart/form-data')
  assert.equal([missing.error._tag, missing.status], ['MissingBoundary', 400])
  const bad = await failure(close, 1, {}, `multipart/form-data; boundary="${'b'.repeat(71)}"`)
  assert.equal([bad.error._tag, bad.status], ['InvalidBoundary', 400])
  const { req, probe } = source(close, 1, 'text/plain')
  await readMultipart(req).next().catch(() => undefined)
  assert.is(probe.pulled, 0, 'nothing read of the body')
  const noType = { headerMap: new Map<string, string>(), body: source(close, 1).req.body }
  const error = await readMultipart(noType).next().catch((e: unknown) => e)
  assert.ok(error instanceof MultipartReadError && error.status === 415)
})

test('readMultipart :: nothing is read ahead of the handler', async () => {
  const { req, probe } = source(field('a', '1') + file('big', 'big.bin', 'z'.repeat(1000)) + close, 10)
  const parts = readMultipart(req)
  const first = (await parts.next()).value as FormPart
  assert.is(first.kind, 'field')
  const pulledAtField = probe.pulled
  const second = (await parts.next()).value as FormPart
  assert.is(second.kind, 'file')
  assert.ok(probe.pulled < probe.total / 2, `the file's data not read yet (${probe.pulled} of ${probe.total})`)
  assert.ok(pulledAtField <= probe.pulled)
})

test('readMultipart :: a file is read once: a second reader is a TypeError', async () => {
  const { req } = source(file('f', 'f.txt', 'abc') + close, 2)
  for await (const part of readMultipart(req)) {
    if (part.kind !== 'file') continue
    assert.is(dec.decode(await part.bytes()), 'abc')
    assert.throws(() => part.data[Symbol.asyncIterator](), TypeError)
    await part.bytes().then(
      () => assert.unreachable('rejects'),
      (e: unknown) => assert.ok(e instanceof TypeError),
    )
  }
})

test('readMultipart :: filename* (RFC 7578 §4.2, RFC 5987) is decoded', async () => {
  const body = `--${B}\r\nContent-Disposition: form-data; name="f"; filename*=UTF-8''na%C3%AFve.txt\r\n\r\nq\r\n${close}`
  const { parts } = await readAll(body, 3)
  assert.equal(parts, [['file', 'f', 'naïve.txt', 'text/plain', 'q']], 'RFC 7578 §4.4: text/plain unless told')
})

test.run()

import { createHash, randomBytes } from 'node:crypto'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { boundaryOfProvisional, readMultipartProvisional } from '../../../bench/peers/stream-multipart-provisional.js'
import { multipartFrame, patternChunks } from '../../../bench/streaming/multipart-body.js'

const BOUNDARY = '----twinport-bench-0123456789ab'

// The whole body the bench's upload client sends.
const bodyOf = (pattern: Uint8Array, size: number): Buffer => {
  const f = multipartFrame(BOUNDARY, { field: 'client', value: '3' }, { field: 'file', filename: 'client-3.bin', size })
  return Buffer.concat([f.head, ...patternChunks(pattern, size), f.tail])
}

async function* split(body: Buffer, cuts: readonly number[]): AsyncGenerator<Uint8Array> {
  let at = 0
  for (const cut of [...cuts, body.length]) {
    if (cut > at) yield body.subarray(at, cut)
    at = Math.max(at, cut)
  }
}

const read = async (chunks: AsyncIterable<Uint8Array>): Promise<unknown[]> => {
  const out: unknown[] = []
  for await (const part of readMultipartProvisional(chunks, BOUNDARY)) {
    if (part.kind === 'field') out.push(part)
    else {
      const hash = createHash('sha256')
      let size = 0
      for await (const c of part.data) {
        hash.update(c)
        size += c.length
      }
      out.push({ kind: 'file', name: part.name, filename: part.filename, size, sha256: hash.digest('hex') })
    }
  }
  return out
}

const expected = (pattern: Uint8Array, size: number): unknown[] => {
  const hash = createHash('sha256')
  for (const c of patternChunks(pattern, size)) hash.update(c)
  return [
    { kind: 'field', name: 'client', value: '3' },
    { kind: 'file', name: 'file', filename: 'client-3.bin', size, sha256: hash.digest('hex') },
  ]
}

test('readMultipartProvisional :: the bench body, whole and split at every offset', async () => {
  // Data full of look-alikes: CRLF, dashes and the boundary's start, but never all of it.
  const pattern = Buffer.from(`ab\r\n--${BOUNDARY.slice(0, 20)}\r\n-\r`)
  const body = bodyOf(pattern, 300)
  assert.equal(await read(split(body, [])), expected(pattern, 300))
  for (let cut = 1; cut < body.length; cut++) assert.equal(await read(split(body, [cut])), expected(pattern, 300), `cut at ${cut}`)
})

test('readMultipartProvisional :: byte by byte, random splits of a random file, and an empty file', async () => {
  const pattern = Buffer.from(`xy\r\n--${BOUNDARY.slice(0, 9)}`)
  const small = bodyOf(pattern, 64)
  assert.equal(await read(split(small, Array.from({ length: small.length }, (_, i) => i))), expected(pattern, 64))
  const random = randomBytes(65536)
  const big = bodyOf(random, 200_000)
  for (let round = 0; round < 20; round++) {
    const cuts = Array.from({ length: 30 }, () => Math.floor(Math.random() * big.length)).sort((a, b) => a - b)
    assert.equal(await read(split(big, cuts)), expected(random, 200_000), JSON.stringify(cuts))
  }
  assert.equal(await read(split(bodyOf(random, 0), [])), expected(random, 0))
})

test('readMultipartProvisional :: a body cut before the close delimiter throws', async () => {
  const body = bodyOf(Buffer.from('abc'), 10)
  try {
    await read(split(body.subarray(0, body.length - 5), []))
    assert.unreachable('should have thrown')
  } catch (e) {
    assert.match(String(e), /^Error: multipart: /)
    assert.not.match(String(e), /should have thrown/)
  }
})

test('readMultipartProvisional :: a file left unread is skipped, and the parts after it still come', async () => {
  const f = multipartFrame(BOUNDARY, { field: 'client', value: '3' }, { field: 'file', filename: 'x.bin', size: 5000 })
  const body = Buffer.concat([f.head, ...patternChunks(Buffer.from('abc'), 5000), Buffer.from(`\r\n--${BOUNDARY}\r\ncontent-disposition: form-data; name="after"\r\n\r\nyes`), f.tail])
  const seen: string[] = []
  for await (const part of readMultipartProvisional(split(body, [100, 2000, 4000]), BOUNDARY)) {
    if (part.kind === 'field') seen.push(`${part.name}=${part.value}`)
    else {
      seen.push(`file ${part.filename}`)
      for await (const _ of part.data) break
    }
  }
  assert.equal(seen, ['client=3', 'file x.bin', 'after=yes'])
})

test('boundaryOfProvisional :: the boundary of a multipart/form-data type, quoted or not', () => {
  assert.is(boundaryOfProvisional('multipart/form-data; boundary=abc'), 'abc')
  assert.is(boundaryOfProvisional('multipart/form-data; charset=utf-8; boundary="a b"'), 'a b')
  assert.is(boundaryOfProvisional('text/plain; boundary=abc'), undefined)
  assert.is(boundaryOfProvisional(undefined), undefined)
})

test.run()

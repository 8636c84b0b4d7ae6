import { MultipartReadError } from '../../../lib/core/http/multipart/read-multipart.js'
import { createHash } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { HttpContext, Response, StreamRequest } from '../../../lib/core/index.js'
import { isStreamBody } from '../../../lib/core/index.js'
import { streamRoute, uploadRoute } from '../../../bench/peers/stream-twinport-routes.js'
import { multipartFrame, patternChunks, patternSha256 } from '../../../bench/streaming/multipart-body.js'

// The bench's twinport handlers called in process, with no engine: what they answer is what
// the engine will send once it streams (issue 22).

const CTX = {} as HttpContext

const requestOf = (fields: { readonly query?: Record<string, string>; readonly contentType?: string; readonly body?: AsyncIterable<Uint8Array> }): StreamRequest =>
  ({ query: fields.query ?? {}, headerMap: new Map(fields.contentType === undefined ? [] : [['content-type', fields.contentType]]), body: fields.body }) as unknown as StreamRequest

async function* pieces(body: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < body.length; at += size) yield body.subarray(at, at + size)
}

// `json(...)` keeps the value; the engine serializes it when it sends the answer.
const jsonOf = (res: Response): unknown =>
  typeof res.body === 'string' ? JSON.parse(res.body) : res.body instanceof Uint8Array ? JSON.parse(new TextDecoder().decode(res.body)) : res.body

test('stream-twinport /stream :: a streamed body of N chunks of S bytes of 0x61, length not announced', async () => {
  const res = (await streamRoute.handler(requestOf({ query: { chunks: '5', size: '1000' } }) as never, CTX)) as Response
  assert.is(res.status, 200)
  if (!isStreamBody(res.body)) throw new Error('not a streamed body')
  assert.is(res.body.length, undefined)
  let bytes = 0
  let pieces = 0
  for await (const piece of res.body.source as AsyncIterable<Uint8Array>) {
    pieces++
    bytes += piece.length
    assert.ok(piece.every((b) => b === 0x61))
  }
  assert.equal([pieces, bytes], [5, 5000])
})

test('stream-twinport /upload :: files written to disk and kept (the harness hashes them), hashed and deleted with ?sink=hash, kept with &keep=1, or only counted with ?sink=count', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stream-routes-spec-'))
  const before = process.env['UPLOAD_DIR']
  process.env['UPLOAD_DIR'] = dir
  try {
    const pattern = Buffer.from('0123456789\r\n--b')
    const size = 100_003
    const frame = multipartFrame('b0und', { field: 'client', value: '9' }, { field: 'file', filename: 'client-9.bin', size })
    const body = Buffer.concat([frame.head, ...patternChunks(pattern, size), frame.tail])
    const file = { field: 'file', filename: 'client-9.bin', size, sha256: patternSha256(pattern, size) }
    const res = (await uploadRoute.handler(requestOf({ contentType: frame.contentType, body: pieces(body, 4093) }) as never, CTX)) as Response
    const written = jsonOf(res) as { fields: unknown; files: { path: string; sha256: string }[] }
    const onDisk = written.files[0]?.path ?? ''
    assert.equal([res.status, written.fields, written.files[0]?.sha256], [200, { client: '9' }, ''])
    assert.ok(onDisk.startsWith(dir), onDisk)
    assert.is(createHash('sha256').update(readFileSync(onDisk)).digest('hex'), file.sha256)
    rmSync(onDisk)
    const hashed = (await uploadRoute.handler(requestOf({ query: { sink: 'hash' }, contentType: frame.contentType, body: pieces(body, 4093) }) as never, CTX)) as Response
    assert.equal([hashed.status, jsonOf(hashed)], [200, { fields: { client: '9' }, files: [file] }])
    assert.equal(readdirSync(dir), [])
    const kept = (await uploadRoute.handler(requestOf({ query: { sink: 'hash', keep: '1' }, contentType: frame.contentType, body: pieces(body, 65536) }) as never, CTX)) as Response
    const answer = jsonOf(kept) as { files: { path: string }[] }
    const path = answer.files[0]?.path ?? ''
    assert.ok(existsSync(path) && path.startsWith(dir), path)
    assert.is(readFileSync(path).length, size)
    rmSync(path)
    // ?sink=count: the bytes counted, no hash, no file written.
    const counted = (await uploadRoute.handler(requestOf({ query: { sink: 'count' }, contentType: frame.contentType, body: pieces(body, 777) }) as never, CTX)) as Response
    assert.equal(jsonOf(counted), { fields: { client: '9' }, files: [{ ...file, sha256: '' }] })
    assert.equal(readdirSync(dir), [])
  } finally {
    if (before === undefined) delete process.env['UPLOAD_DIR']
    else process.env['UPLOAD_DIR'] = before
    rmSync(dir, { recursive: true, force: true })
  }
})

test('stream-twinport /upload :: a body that is not multipart makes readMultipart throw its 415, which a server answers with that status', async () => {
  const thrown = await Promise.resolve()
    .then(() => uploadRoute.handler(requestOf({ contentType: 'text/plain', body: pieces(new Uint8Array(3), 3) }) as never, CTX))
    .then(() => undefined, (error: unknown) => error)
  assert.ok(thrown instanceof MultipartReadError)
  assert.is(thrown.status, 415)
})

test.run()

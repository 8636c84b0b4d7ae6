/**
 * Uploads to disk on every runtime (issue 22): a multipart body read with `readMultipart` and
 * its files written with `writeFileFrom` (node:fs, which Bun and Deno run too) by the app of
 * spec/integration/fixtures/uploads.ts, served by the runtime TWINPORT_TARGET names. The files'
 * bytes on disk are checked; a file past `maxBytes` answers 413 and leaves no partial file; a
 * client that vanishes mid-upload leaves none either. The clients are Node's fetch and raw sockets.
 */
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { eventually, rawConnect } from '../support/server.js'

const Uploads = suite('runServer :: uploads to disk')

const options: PlainOptions = { limits: { heartbeatIntervalMs: 300, streamIdleMs: 2000 } }
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')
const blobOf = (bytes: Uint8Array): Blob => new Blob([bytes as Uint8Array<ArrayBuffer>])

Uploads('writeFileFrom: the files of a multipart upload land on disk byte for byte', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'twinport-uploads-'))
  const { server, url } = await serve('uploads', 'main', options, { dir })
  try {
    const big = randomBytes(5 * 1024 * 1024 + 7)
    const small = new TextEncoder().encode('hello\r\n--not a boundary\r\n')
    const form = new FormData()
    form.append('title', 'holiday')
    form.append('big', blobOf(big), 'big.bin')
    form.append('empty', blobOf(new Uint8Array(0)), 'empty.bin')
    form.append('small', blobOf(small), 'small.txt')
    const res = await fetch(`${url}/save`, { method: 'POST', body: form })
    assert.is(res.status, 200)
    assert.equal(await res.json(), {
      files: [
        { field: 'big', filename: 'big.bin', name: '0.bin', size: big.length },
        { field: 'empty', filename: 'empty.bin', name: '1.bin', size: 0 },
        { field: 'small', filename: 'small.txt', name: '2.bin', size: small.length },
      ],
    })
    assert.is(sha256(await readFile(join(dir, '0.bin'))), sha256(big))
    assert.is((await readFile(join(dir, '1.bin'))).length, 0)
    assert.is(sha256(await readFile(join(dir, '2.bin'))), sha256(small))
    assert.equal(await server.probe('outcomes'), ['ok', 'ok', 'ok'])
  } finally {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
})

Uploads('writeFileFrom: a file past maxBytes answers 413 and leaves no partial file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'twinport-uploads-'))
  const { server, url } = await serve('uploads', 'main', options, { dir })
  try {
    const form = new FormData()
    form.append('big', blobOf(randomBytes(3 * 1024 * 1024)), 'big.bin')
    const res = await fetch(`${url}/save?max=1000000`, { method: 'POST', body: form })
    assert.is(res.status, 413)
    assert.equal(await res.json(), { error: 'file_too_large' })
    assert.equal(await server.probe('outcomes'), ['TooLarge'])
    assert.equal(await readdir(dir), [])
    // The server serves on: the next upload, within the limit, is written.
    const ok = new FormData()
    ok.append('small', blobOf(new Uint8Array(1000).fill(7)), 'small.bin')
    const again = await fetch(`${url}/save?max=1000000`, { method: 'POST', body: ok })
    assert.is(again.status, 200)
    assert.equal(await readdir(dir), ['1.bin'])
  } finally {
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
})

Uploads('writeFileFrom: a client that vanishes mid-upload leaves no partial file', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'twinport-uploads-'))
  const { server, port } = await serve('uploads', 'main', options, { dir })
  const conn = await rawConnect(port)
  try {
    const boundary = 'vanishing-boundary'
    const prelude = `--${boundary}\r\nContent-Disposition: form-data; name="f"; filename="f.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`
    const length = prelude.length + 8 * 1024 * 1024 + `\r\n--${boundary}--\r\n`.length
    conn.write(`POST /save HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n${prelude}`)
    conn.write(randomBytes(1024 * 1024))
    // The partial file exists and grows while the upload goes on.
    await eventually(async () => {
      const names = await readdir(dir)
      return names.length === 1 && (await readFile(join(dir, names[0] as string))).length > 0
    }, 5000, 'the partial file on disk')
    conn.socket.destroy()
    await eventually(async () => (await server.probe('outcomes')).length === 1, 5000, 'the upload to end')
    const [outcome] = await server.probe('outcomes')
    assert.ok(outcome === 'Aborted' || outcome === 'SourceFailed', `ended as ${String(outcome)}`)
    await eventually(async () => (await readdir(dir)).length === 0, 5000, 'the partial file removed')
  } finally {
    conn.socket.destroy()
    await server.close()
    await rm(dir, { recursive: true, force: true })
  }
})

Uploads.run()

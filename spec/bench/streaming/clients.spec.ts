import { createHash } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { startServer } from '../../../bench/load/start-server.js'
import { download } from '../../../bench/streaming/download-client.js'
import { patternSha256 } from '../../../bench/streaming/multipart-body.js'
import { upload } from '../../../bench/streaming/upload-client.js'

// Integration: the streaming bench's clients against its peer servers, briefly. Bytes and hashes only, no timings.

test('download :: counts a chunked stream to its last chunk from raw node:net and node:http', async () => {
  for (const script of ['bench/peers/stream-raw-net.ts', 'bench/peers/stream-node-http.ts']) {
    const server = await startServer(script)
    if (typeof server === 'string') throw new Error(server)
    try {
      const d = await download(server.port, '/stream?chunks=37&size=65536', 20_000)
      assert.equal([d.status, d.complete, d.bodyBytes, d.error], [200, true, 37 * 65536, undefined], script)
      const odd = await download(server.port, '/stream?chunks=3&size=1000', 20_000)
      assert.equal([odd.complete, odd.bodyBytes], [true, 3000], script)
      const missing = await download(server.port, '/nothing', 20_000)
      assert.equal([missing.status, missing.complete, missing.bodyBytes], [404, true, 0], script)
    } finally {
      await server.stop()
    }
  }
})

test('upload :: fastify + @fastify/multipart writes the file as sent with pipeline (kept, path answered), or hashes and deletes it with ?sink=hash', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'stream-clients-spec-'))
  const server = await startServer('bench/peers/stream-fastify.ts', 30_000, [], { UPLOAD_DIR: dir })
  if (typeof server === 'string') throw new Error(server)
  try {
    const pattern = Buffer.from('0123456789abcdef\r\n--')
    const size = 3 * 1024 * 1024 + 7
    const answers = await Promise.all([0, 1, 2].map((i) =>
      upload({ port: server.port, target: '/upload?sink=hash', boundary: `b-${i}-xyz`, client: String(i), size, pattern, timeoutMs: 20_000 })))
    for (const [i, u] of answers.entries()) {
      assert.is(u.status, 200, u.body)
      assert.equal(JSON.parse(u.body), { fields: { client: String(i) }, files: [{ field: 'file', filename: `client-${i}.bin`, size, sha256: patternSha256(pattern, size) }] })
    }
    assert.equal(readdirSync(dir), [])
    const onDisk = await upload({ port: server.port, target: '/upload', boundary: 'b-disk-xyz', client: '9', size, pattern, timeoutMs: 20_000 })
    assert.is(onDisk.status, 200, onDisk.body)
    const file = (JSON.parse(onDisk.body) as { files: { size: number; path: string }[] }).files[0]
    assert.is(file?.size, size)
    assert.is(createHash('sha256').update(readFileSync(file?.path ?? '')).digest('hex'), patternSha256(pattern, size))
  } finally {
    await server.stop()
    rmSync(dir, { recursive: true, force: true })
  }
})

test.run()

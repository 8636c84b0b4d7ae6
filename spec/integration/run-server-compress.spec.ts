/**
 * HTTP compression end to end (issue 30): the `compress` option on the runtime
 * TWINPORT_TARGET names, checked with curl (`--compressed`, and raw `Accept-Encoding`
 * negotiation with q-values), raw sockets (Content-Length of a compressed answer, an event
 * stream decoded event by event) and a WebSocket client (the upgrade is never compressed).
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliDecompressSync, createGunzip, gunzipSync } from 'node:zlib'
import * as zlib from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'
import { openClient, rawConnect } from '../support/server.js'

const Compress = suite('runServer :: HTTP compression')

const run = (cmd: string, args: readonly string[]): Promise<Buffer> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] })
    const out: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.on('close', () => resolve(Buffer.concat(out)))
  })

// `curl -si`: the status, the headers by lower-case name, the body as bytes.
const curl = async (...args: readonly string[]): Promise<{ status: number; headers: ReadonlyMap<string, string>; body: Buffer }> => {
  const out = await run('curl', ['-si', ...args])
  const split = out.indexOf('\r\n\r\n')
  const head = out.subarray(0, split).toString('latin1').split('\r\n')
  const headers = new Map<string, string>()
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':')
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
  }
  return { status: Number(head[0]?.split(' ')[1]), headers, body: out.subarray(split + 4) }
}

const zstdDecompressSync = (zlib as unknown as { zstdDecompressSync?: (b: Uint8Array) => Buffer }).zstdDecompressSync

let dir = ''
const css = 'body { color: #333; margin: 0 auto; }\n'.repeat(200)
const page = '<!doctype html><title>compressed</title><p>hello</p>\n'.repeat(60)

Compress.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twinport-compress-'))
  await writeFile(join(dir, 'site.css'), css)
  await writeFile(join(dir, 'index.html'), page)
  await writeFile(join(dir, 'tiny.txt'), 'tiny\n')
  await writeFile(join(dir, 'photo.png'), new Uint8Array(8192).fill(1))
})

Compress.after(async () => {
  await rm(dir, { recursive: true, force: true })
})

Compress('curl --compressed gets a static file and a JSON answer back byte for byte; negotiation follows the q-values', async () => {
  const { server, url } = await serve('compress', 'main', {}, { root: dir })
  try {
    const plain = await curl('--compressed', `${url}/static/site.css`)
    assert.is(plain.status, 200)
    assert.is(plain.body.toString(), css)
    assert.ok(['br', 'gzip', 'zstd'].includes(plain.headers.get('content-encoding') ?? ''), `curl got ${plain.headers.get('content-encoding')}`)
    assert.is(plain.headers.get('vary'), 'Accept-Encoding')
    assert.match(plain.headers.get('etag') ?? '', /^W\/"/)
    assert.not.ok(plain.headers.has('accept-ranges'))

    const gz = await curl('-H', 'Accept-Encoding: gzip', `${url}/static/site.css`)
    assert.is(gz.headers.get('content-encoding'), 'gzip')
    assert.is(gunzipSync(gz.body).toString(), css)
    const br = await curl('-H', 'Accept-Encoding: gzip;q=0.5, br', `${url}/static/index.html`)
    assert.is(br.headers.get('content-encoding'), 'br')
    assert.is(brotliDecompressSync(br.body).toString(), page)
    const q = await curl('-H', 'Accept-Encoding: br;q=0.2, gzip;q=0.9', `${url}/static/site.css`)
    assert.is(q.headers.get('content-encoding'), 'gzip')
    const refused = await curl('-H', 'Accept-Encoding: br;q=0, gzip;q=0', `${url}/static/site.css`)
    assert.not.ok(refused.headers.has('content-encoding'))
    assert.is(refused.headers.get('vary'), 'Accept-Encoding')
    assert.is(refused.body.toString(), css)
    const none = await curl(`${url}/static/site.css`)
    assert.not.ok(none.headers.has('content-encoding'))
    assert.is(none.headers.get('content-length'), String(css.length))

    const zs = await curl('-H', 'Accept-Encoding: zstd', `${url}/static/site.css`)
    if (server.runtime === 'node' && zstdDecompressSync === undefined) assert.not.ok(zs.headers.has('content-encoding'), 'Node 20 has no zstd')
    else {
      assert.is(zs.headers.get('content-encoding'), 'zstd')
      if (zstdDecompressSync !== undefined) assert.is(zstdDecompressSync(zs.body).toString(), css)
    }

    const report = await curl('-H', 'Accept-Encoding: gzip', `${url}/report`)
    assert.is(report.headers.get('content-encoding'), 'gzip')
    // A buffered answer is compressed whole: its Content-Length is the compressed size.
    assert.is(report.headers.get('content-length'), String(report.body.length))
    assert.is(JSON.parse(gunzipSync(report.body).toString()).length, 400)
  } finally {
    await server.close()
  }
})

Compress('left alone: under the threshold, HEAD, 304, 206, 204, images, no-transform, already encoded', async () => {
  const { server, url } = await serve('compress', 'main', {}, { root: dir })
  try {
    const ae = ['-H', 'Accept-Encoding: gzip, br']
    const tiny = await curl(...ae, `${url}/static/tiny.txt`)
    assert.not.ok(tiny.headers.has('content-encoding'))
    assert.is(tiny.headers.get('vary'), 'Accept-Encoding')
    assert.is((await curl(...ae, `${url}/small`)).body.toString(), 'small')
    const head = await curl(...ae, '-I', `${url}/static/site.css`)
    assert.not.ok(head.headers.has('content-encoding'))
    assert.is(head.headers.get('vary'), 'Accept-Encoding')
    const etag = (await curl(...ae, `${url}/static/site.css`)).headers.get('etag') as string
    const cached = await curl(...ae, '-H', `If-None-Match: ${etag}`, `${url}/static/site.css`)
    assert.is(cached.status, 304)
    assert.not.ok(cached.headers.has('content-encoding'))
    // The 304 says what the 200 said: the weak tag the client holds, and the Vary.
    assert.is(cached.headers.get('etag'), etag)
    assert.is(cached.headers.get('vary'), 'Accept-Encoding')
    const range = await curl(...ae, '-r', '0-9', `${url}/static/site.css`)
    assert.is(range.status, 206)
    assert.not.ok(range.headers.has('content-encoding'))
    assert.is(range.body.toString(), css.slice(0, 10))
    assert.is((await curl(...ae, `${url}/nothing`)).status, 204)
    const png = await curl(...ae, `${url}/static/photo.png`)
    assert.not.ok(png.headers.has('content-encoding'))
    assert.is(png.body.length, 8192)
    assert.is((await curl(...ae, `${url}/image`)).body.length, 4096)
    const kept = await curl(...ae, `${url}/no-transform`)
    assert.not.ok(kept.headers.has('content-encoding'))
    assert.is(kept.body.length, 4096)
    const encoded = await curl(...ae, `${url}/encoded`)
    assert.is(encoded.headers.get('content-encoding'), 'gzip')
    assert.equal([...encoded.body], [1, 2, 3])
  } finally {
    await server.close()
  }
})

Compress('a streamed body is compressed chunked; an event stream is flushed event by event', async () => {
  const { server, url, port } = await serve('compress', 'main', {}, { root: dir })
  try {
    const pieces = await curl('-H', 'Accept-Encoding: gzip', '--raw', `${url}/pieces`)
    assert.is(pieces.headers.get('transfer-encoding'), 'chunked')
    assert.is(pieces.headers.get('content-encoding'), 'gzip')
    const whole = await curl('--compressed', `${url}/pieces`)
    assert.is(whole.body.toString(), Array.from({ length: 50 }, (_, i) => `piece ${i} `.repeat(100)).join(''))

    const conn = await rawConnect(port)
    conn.write('GET /events HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n')
    const gunzip = createGunzip()
    let decoded = ''
    gunzip.on('data', (c: Buffer) => (decoded += c.toString()))
    let raw = Buffer.alloc(0)
    let headDone = false
    // Dechunk as bytes arrive; feed each chunk's data to the gunzip stream.
    const feed = (): void => {
      if (!headDone) {
        const end = raw.indexOf('\r\n\r\n')
        if (end < 0) return
        assert.match(raw.subarray(0, end).toString(), /content-encoding: gzip/i)
        raw = raw.subarray(end + 4)
        headDone = true
      }
      for (;;) {
        const line = raw.indexOf('\r\n')
        if (line < 0) return
        const size = parseInt(raw.subarray(0, line).toString(), 16)
        if (raw.length < line + 2 + size + 2) return
        gunzip.write(raw.subarray(line + 2, line + 2 + size))
        raw = raw.subarray(line + 2 + size + 2)
      }
    }
    conn.socket.on('data', (c: Buffer) => {
      raw = Buffer.concat([raw, c])
      feed()
    })
    const waitFor = async (text: string): Promise<void> => {
      const until = Date.now() + 5000
      while (!decoded.includes(text)) {
        if (Date.now() > until) throw new Error(`never decoded ${JSON.stringify(text)}; got ${JSON.stringify(decoded)}`)
        await new Promise((r) => setTimeout(r, 10))
      }
    }
    await waitFor('data: event 0\n\n')
    assert.not.ok(decoded.includes('event 1'))
    await server.probe('release')
    await waitFor('data: event 1\n\n')
    conn.socket.destroy()
  } finally {
    await server.close()
  }
})

Compress('a WebSocket upgrade is never compressed: the 101 goes out and frames echo', async () => {
  const { server, port } = await serve('compress', 'main', {}, { root: dir })
  try {
    const client = await openClient(port, '/', { headers: { 'Accept-Encoding': 'gzip, br' } })
    client.ws.send('hello there')
    assert.is(String(await client.next()), 'hello there')
    client.ws.close()
  } finally {
    await server.close()
  }
})

Compress.run()

/**
 * Request decompression end to end (issue 30): routes declared `decompress` on the runtime
 * TWINPORT_TARGET names, with real clients: curl posting a gzip file (`--data-binary` and a
 * `Content-Encoding` header), `fetch` posting a Brotli body, a gzip bomb (10 MiB of zeros, about
 * 10 KiB on the wire) against a 1 MiB `maxBody`, a corrupt body, and codings not taken.
 */
import { spawn } from 'node:child_process'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import * as zlib from 'node:zlib'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'

const Decompress = suite('runServer :: request decompression')

const run = (cmd: string, args: readonly string[]): Promise<Buffer> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] })
    const out: Buffer[] = []
    child.stdout.on('data', (c: Buffer) => out.push(c))
    child.on('close', () => resolve(Buffer.concat(out)))
  })

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

const MiB = 1024 * 1024
const text = Buffer.from('{"row":1,"name":"twinport"}\n'.repeat(20000))
let dir = ''

Decompress.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twinport-decompress-'))
  await writeFile(join(dir, 'body.gz'), zlib.gzipSync(text))
  await writeFile(join(dir, 'bomb.gz'), zlib.gzipSync(Buffer.alloc(10 * MiB)))
})

Decompress.after(async () => {
  await rm(dir, { recursive: true, force: true })
})

Decompress('curl --data-binary @body.gz with Content-Encoding: gzip: the route gets the decoded bytes, whole and streamed', async () => {
  const { server, url } = await serve('decompress', 'main', {})
  try {
    const whole = await curl('--data-binary', `@${join(dir, 'body.gz')}`, '-H', 'Content-Encoding: gzip', '-H', 'Content-Type: application/json', `${url}/echo`)
    assert.is(whole.status, 200)
    assert.is(whole.headers.get('x-content-encoding'), 'none')
    assert.ok(whole.body.equals(text), 'the decoded body, byte for byte')
    // Chunked on the wire, too.
    const chunked = await curl('--data-binary', `@${join(dir, 'body.gz')}`, '-H', 'Content-Encoding: gzip', '-H', 'Transfer-Encoding: chunked', `${url}/count`)
    assert.equal([chunked.status, JSON.parse(chunked.body.toString())], [200, { size: text.length }])
  } finally {
    await server.close()
  }
})

Decompress('fetch with a Brotli body, a deflate body, and gzip then br stacked', async () => {
  const { server, url } = await serve('decompress', 'main', {})
  try {
    for (const [coding, body] of [
      ['br', zlib.brotliCompressSync(text)],
      ['deflate', zlib.deflateSync(text)],
      ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(text))],
    ] as const) {
      const res = await fetch(`${url}/count`, { method: 'POST', headers: { 'Content-Encoding': coding }, body })
      assert.equal([res.status, await res.json()], [200, { size: text.length }], coding)
      const echoed = await fetch(`${url}/echo`, { method: 'POST', headers: { 'Content-Encoding': coding }, body })
      assert.ok(Buffer.from(await echoed.arrayBuffer()).equals(text), coding)
    }
  } finally {
    await server.close()
  }
})

Decompress('a gzip bomb (10 MiB of zeros, ~10 KiB sent) past maxBody 1 MiB: 413, and no more than 1 MiB handed over', async () => {
  const { server, url } = await serve('decompress', 'main', {})
  try {
    for (const path of ['/echo', '/count']) {
      const res = await curl('--data-binary', `@${join(dir, 'bomb.gz')}`, '-H', 'Content-Encoding: gzip', `${url}${path}`)
      assert.equal([res.status, JSON.parse(res.body.toString())], [413, { error: 'body_too_large' }], path)
    }
    assert.ok((await server.probe('handed')) <= MiB, 'the streamed route saw at most maxBody')
  } finally {
    await server.close()
  }
})

Decompress('a corrupt or truncated body: 400 undecodable_body', async () => {
  const { server, url } = await serve('decompress', 'main', {})
  try {
    const gz = zlib.gzipSync(text)
    const corrupt = Buffer.from(gz)
    corrupt.fill(0x55, 20, 60)
    for (const [name, body] of [['corrupt', corrupt], ['truncated', gz.subarray(0, gz.length >> 1)], ['not gzip', Buffer.from('plain text')]] as const) {
      for (const path of ['/echo', '/count']) {
        const res = await fetch(`${url}${path}`, { method: 'POST', headers: { 'Content-Encoding': 'gzip' }, body })
        assert.equal([res.status, await res.json()], [400, { error: 'undecodable_body' }], `${name} ${path}`)
      }
    }
  } finally {
    await server.close()
  }
})

Decompress('415 with Accept-Encoding: an unknown coding, one the route does not list, a route that did not opt in', async () => {
  const { server, url } = await serve('decompress', 'main', {})
  try {
    const unknown = await fetch(`${url}/echo`, { method: 'POST', headers: { 'Content-Encoding': 'compress' }, body: 'x' })
    assert.is(unknown.status, 415)
    assert.match(unknown.headers.get('accept-encoding') ?? '', /^gzip, deflate, br(, zstd)?, identity$/)
    assert.is(((await unknown.json()) as { error: string }).error, 'unsupported_content_encoding')
    const unlisted = await fetch(`${url}/gzip-only`, { method: 'POST', headers: { 'Content-Encoding': 'br' }, body: zlib.brotliCompressSync(text) })
    assert.equal([unlisted.status, unlisted.headers.get('accept-encoding')], [415, 'gzip, identity'])
    await unlisted.body?.cancel()
    const plain = await fetch(`${url}/plain`, { method: 'POST', headers: { 'Content-Encoding': 'gzip' }, body: zlib.gzipSync(text) })
    assert.equal([plain.status, plain.headers.get('accept-encoding')], [415, 'identity'])
    await plain.body?.cancel()
    // identity is no coding: the body as sent.
    const identity = await fetch(`${url}/plain`, { method: 'POST', headers: { 'Content-Encoding': 'identity' }, body: 'abc' })
    assert.equal([identity.status, await identity.json()], [200, { size: 3 }])
  } finally {
    await server.close()
  }
})

Decompress.run()

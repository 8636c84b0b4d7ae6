/**
 * Static files end to end (issue 30): `serveStatic` on the runtime TWINPORT_TARGET names,
 * reading a directory this spec makes through that runtime's file API, checked with curl
 * (conditional requests, ranges, HEAD, precompressed siblings, traversal sent as is) and
 * fetch (a 3 MiB file streamed whole, byte for byte). Links leaving the root are real
 * symbolic and hard links. Many answers in a row on one keep-alive connection each come
 * within a bound far above any slow machine's, far below the 30 s a lost wake-up of the
 * response pump stalled them for on Bun.
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { link, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'
import { rawConnect, rawExchange, statusOf } from '../support/server.js'

const Files = suite('runServer :: static files')

const run = (cmd: string, args: readonly string[]): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString('latin1')))
    child.stderr.on('data', (c: Buffer) => (out += c.toString('latin1')))
    child.on('close', (code) => resolve({ code: code ?? 1, out }))
  })

// `curl -si`: the status, the headers by lower-case name, the body.
const curl = async (...args: readonly string[]): Promise<{ status: number; headers: ReadonlyMap<string, string>; body: string }> => {
  const { out } = await run('curl', ['-si', '--path-as-is', ...args])
  const split = out.indexOf('\r\n\r\n')
  const head = out.slice(0, split).split('\r\n')
  const headers = new Map<string, string>()
  for (const line of head.slice(1)) {
    const colon = line.indexOf(':')
    headers.set(line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim())
  }
  return { status: Number(head[0]?.split(' ')[1]), headers, body: out.slice(split + 4) }
}

const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

let dir = ''
let root = ''
const big = randomBytes(3 * 1024 * 1024 + 17)
const text = 'line of text\n'.repeat(300)

Files.before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'twinport-files-'))
  root = join(dir, 'www')
  await mkdir(join(root, 'docs'), { recursive: true })
  await writeFile(join(dir, 'secret.txt'), 'root:x:0:0\n')
  await writeFile(join(root, 'index.html'), '<!doctype html><h1>home</h1>\n')
  await writeFile(join(root, 'docs', 'index.html'), '<h1>docs</h1>\n')
  await writeFile(join(root, 'site.css'), text)
  await writeFile(join(root, 'site.css.br'), 'pretend brotli')
  await writeFile(join(root, 'app.3f9a1c2e.js'), 'console.log(1)\n')
  await writeFile(join(root, 'big.bin'), big)
  await writeFile(join(root, '.env'), 'SECRET=1\n')
  await symlink(join(dir, 'secret.txt'), join(root, 'escape.txt'))
  await symlink(join(root, 'site.css'), join(root, 'alias.css'))
  await writeFile(join(dir, 'outside.txt'), 'outside\n')
  await link(join(dir, 'outside.txt'), join(root, 'hard.txt'))
})

Files.after(async () => {
  await rm(dir, { recursive: true, force: true })
})

Files('a file: type, length, validators, policy; a 3 MiB file streamed byte for byte', async () => {
  const { server, url } = await serve('files', 'main', {}, { root })
  try {
    const css = await curl(`${url}/static/site.css`)
    assert.is(css.status, 200)
    assert.is(css.body, text)
    assert.is(css.headers.get('content-type'), 'text/css; charset=utf-8')
    assert.is(css.headers.get('content-length'), String(text.length))
    assert.match(css.headers.get('etag') ?? '', /^"[0-9a-f]+-[0-9a-f]+"$/)
    assert.match(css.headers.get('last-modified') ?? '', / GMT$/)
    assert.is(css.headers.get('cache-control'), 'public, max-age=0')
    assert.is(css.headers.get('accept-ranges'), 'bytes')
    assert.is(css.headers.get('x-content-type-options'), 'nosniff')
    assert.is((await curl(`${url}/static/app.3f9a1c2e.js`)).headers.get('cache-control'), 'public, max-age=31536000, immutable')
    const res = await fetch(`${url}/static/big.bin`)
    assert.is(res.headers.get('content-length'), String(big.length))
    assert.is(sha256(new Uint8Array(await res.arrayBuffer())), sha256(big))
    const home = await curl(`${url}/static/`)
    assert.is(home.body, '<!doctype html><h1>home</h1>\n')
    const docs = await curl(`${url}/static/docs`)
    assert.is(docs.status, 301)
    assert.is(docs.headers.get('location'), '/static/docs/')
    assert.is((await curl(`${url}/hello`)).body, '{"hello":"world"}')
  } finally {
    await server.close()
  }
})

// The answers complete in `data`: status, Content-Range and body, each framed by its Content-Length.
const answersIn = (data: Buffer): { status: number; range: string | undefined; body: Buffer }[] => {
  const answers = []
  let at = 0
  for (;;) {
    const end = data.indexOf('\r\n\r\n', at)
    if (end < 0) return answers
    const head = data.subarray(at, end).toString('latin1')
    const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0)
    if (data.length < end + 4 + length) return answers
    answers.push({ status: statusOf(head), range: /\r\ncontent-range: ([^\r]+)/i.exec(head)?.[1], body: data.subarray(end + 4, end + 4 + length) })
    at = end + 4 + length
  }
}

// Each answer may take this long: generous for a loaded machine, short of the 30 s stall.
const ANSWER_BOUND_MS = 10_000

Files('keep-alive: 48 ranges of 64 KiB, then the 3 MiB file twice, one request at a time on one connection, none stalls', async () => {
  const { server, port } = await serve('files', 'main', {}, { root })
  const conn = await rawConnect(port)
  try {
    const piece = 64 * 1024
    const requests: { target: string; first: number; last: number }[] = []
    for (let i = 0; i < 48; i++) {
      const first = (i * 7919 * 16) % (big.length - piece)
      requests.push({ target: `/static/big.bin`, first, last: first + piece - 1 })
    }
    requests.push({ target: '/static/big.bin', first: 0, last: big.length - 1 }, { target: '/static/big.bin', first: 0, last: big.length - 1 })
    for (const [i, { target, first, last }] of requests.entries()) {
      const whole = first === 0 && last === big.length - 1
      conn.write(`GET ${target} HTTP/1.1\r\nHost: x\r\n${whole ? '' : `Range: bytes=${first}-${last}\r\n`}\r\n`)
      const data = await conn.until((received) => answersIn(received).length > i, ANSWER_BOUND_MS)
      const answer = answersIn(data)[i] as ReturnType<typeof answersIn>[number]
      assert.is(answer.status, whole ? 200 : 206, `answer ${i}`)
      if (!whole) assert.is(answer.range, `bytes ${first}-${last}/${big.length}`)
      assert.is(sha256(answer.body), sha256(big.subarray(first, last + 1)), `answer ${i}`)
    }
  } finally {
    conn.socket.destroy()
    await server.close()
  }
})

Files('HEAD: the headers of GET, no body', async () => {
  const { server, url } = await serve('files', 'main', {}, { root })
  try {
    const head = await curl('-I', `${url}/static/big.bin`)
    assert.is(head.status, 200)
    assert.is(head.headers.get('content-length'), String(big.length))
    assert.is(head.body, '')
  } finally {
    await server.close()
  }
})

Files('conditional requests with curl: 304 for If-None-Match and If-Modified-Since (curl -z), 412 for If-Match', async () => {
  const { server, url } = await serve('files', 'main', {}, { root })
  try {
    const first = await curl(`${url}/static/site.css`)
    const etag = first.headers.get('etag') as string
    const again = await curl('-H', `If-None-Match: ${etag}`, `${url}/static/site.css`)
    assert.is(again.status, 304)
    assert.is(again.body, '')
    assert.is(again.headers.get('etag'), etag)
    assert.is((await curl('-z', first.headers.get('last-modified') as string, `${url}/static/site.css`)).status, 304)
    assert.is((await curl('-H', 'If-None-Match: "nope"', `${url}/static/site.css`)).status, 200)
    assert.is((await curl('-H', 'If-Match: "nope"', `${url}/static/site.css`)).status, 412)
  } finally {
    await server.close()
  }
})

Files('ranges with curl -r: 206, multipart/byteranges, 416, If-Range', async () => {
  const { server, url } = await serve('files', 'main', {}, { root })
  try {
    const one = await curl('-r', '1000-1999', `${url}/static/big.bin`)
    assert.is(one.status, 206)
    assert.is(one.headers.get('content-range'), `bytes 1000-1999/${big.length}`)
    assert.is(one.headers.get('content-length'), '1000')
    assert.ok(Buffer.from(one.body, 'latin1').equals(big.subarray(1000, 2000)))
    const tail = await curl('-r', '-13', `${url}/static/site.css`)
    assert.is(tail.body, 'line of text\n')
    const many = await curl('-r', '0-3,100-103', `${url}/static/site.css`)
    assert.is(many.status, 206)
    const boundary = /^multipart\/byteranges; boundary=(\S+)$/.exec(many.headers.get('content-type') ?? '')?.[1] as string
    assert.ok(boundary !== undefined)
    assert.is(many.headers.get('content-length'), String(many.body.length))
    assert.match(many.body, `Content-Range: bytes 0-3/${text.length}\r\n\r\nline\r\n--${boundary}\r\n`)
    assert.ok(many.body.endsWith(`\r\n--${boundary}--\r\n`))
    const none = await curl('-r', '999999-', `${url}/static/site.css`)
    assert.is(none.status, 416)
    assert.is(none.headers.get('content-range'), `bytes */${text.length}`)
    const etag = one.headers.get('etag') as string
    assert.is((await curl('-r', '0-9', '-H', `If-Range: ${etag}`, `${url}/static/big.bin`)).status, 206)
    assert.is((await curl('-r', '0-9', '-H', 'If-Range: "stale"', `${url}/static/site.css`)).status, 200)
  } finally {
    await server.close()
  }
})

Files('precompressed siblings by Accept-Encoding with Vary; the SPA fallback for HTML requests', async () => {
  const { server, url } = await serve('files', 'main', {}, { root })
  try {
    const br = await curl('-H', 'Accept-Encoding: gzip, br', `${url}/app/site.css`)
    assert.is(br.body, 'pretend brotli')
    assert.is(br.headers.get('content-encoding'), 'br')
    assert.is(br.headers.get('vary'), 'Accept-Encoding')
    assert.is(br.headers.get('content-type'), 'text/css; charset=utf-8')
    const plain = await curl('-H', 'Accept-Encoding: gzip', `${url}/app/site.css`)
    assert.is(plain.body, text)
    assert.is(plain.headers.get('vary'), 'Accept-Encoding')
    assert.is((await curl('-H', 'Accept: text/html', `${url}/app/rooms/42`)).body, '<!doctype html><h1>home</h1>\n')
    assert.is((await curl('-H', 'Accept: */*', `${url}/app/missing.js`)).status, 404)
  } finally {
    await server.close()
  }
})

Files('safety: .. in any spelling, NUL, dotfiles, links out of the root; never a byte from outside', async () => {
  const { server, url, port } = await serve('files', 'main', {}, { root })
  try {
    const refused: readonly (readonly [string, number])[] = [
      ['/static/../secret.txt', 403],
      ['/static/%2e%2e/secret.txt', 403],
      ['/static/%252e%252e/secret.txt', 403],
      ['/static/..%2fsecret.txt', 403],
      ['/static/..%5csecret.txt', 403],
      ['/static/%c0%ae%c0%ae/secret.txt', 400],
      ['/static/site.css%00.png', 400],
      ['/static/.env', 404],
      ['/static/escape.txt', 403],
      ['/static/hard.txt', 403],
      ['/static//etc/passwd', 404],
    ]
    for (const [target, status] of refused) {
      const res = await curl(`${url}${target}`)
      assert.is(res.status, status, target)
      assert.not.match(res.body, 'root:x', target)
      assert.not.match(res.body, 'outside\n', target)
    }
    // A backslash sent raw (curl would keep it too, but say it on the wire).
    const raw = await rawExchange(port, 'GET /static/..\\secret.txt HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.ok([400, 403].includes(statusOf(raw)), raw)
    // A link that stays inside the root is served.
    assert.is((await curl(`${url}/static/alias.css`)).body, text)
  } finally {
    await server.close()
  }
})

Files('links followed by option; dotfiles served by option', async () => {
  const { server, url } = await serve('files', 'main', {}, { root, options: { links: 'follow', dotfiles: 'allow' } })
  try {
    assert.is((await curl(`${url}/static/escape.txt`)).body, 'root:x:0:0\n')
    assert.is((await curl(`${url}/static/hard.txt`)).body, 'outside\n')
    assert.is((await curl(`${url}/static/.env`)).body, 'SECRET=1\n')
    assert.is(await readFile(join(root, 'hard.txt'), 'utf8'), 'outside\n')
  } finally {
    await server.close()
  }
})

Files.run()

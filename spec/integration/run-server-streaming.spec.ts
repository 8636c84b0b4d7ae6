/**
 * Streaming HTTP both ways, end to end (issue 22, DESIGN §8): streamed answers framed
 * chunked, by length or until close, none for HEAD/204/304; backpressure to the source;
 * cancellation when the client goes, stops reading or the source stalls; a source that throws;
 * pipelining and keep-alive after a streamed answer; streamed request bodies with per-route
 * limits, a guard before the body and `100 Continue`, paused reads, a client vanishing
 * mid-upload; multipart uploads from `curl -F` and FormData; the echo app's `/stream` and
 * `/upload`. The server is an app of spec/integration/fixtures/streaming.ts served by the
 * runtime TWINPORT_TARGET names; the clients are Node's fetch, curl and raw sockets.
 */
import { spawn } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import type { PlainOptions } from '../support/fixture.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, rawConnect, rawExchange, statusOf } from '../support/server.js'

const Streaming = suite('runServer :: streaming HTTP')

const HEARTBEAT = 300
const options: PlainOptions = { limits: { heartbeatIntervalMs: HEARTBEAT, streamIdleMs: 400, maxBody: 2000 } }
// For the backpressure test: the heartbeat would cancel a client that pauses on purpose.
const patient: PlainOptions = { limits: { heartbeatIntervalMs: 30_000, streamIdleMs: 30_000, maxBody: 2000 } }

const bodyOf = (text: string): string => text.slice(text.indexOf('\r\n\r\n') + 4)
const headOf = (text: string): string => text.slice(0, text.indexOf('\r\n\r\n'))
const sha256 = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex')

// Runs a command without blocking the event loop (the server may be in this process).
const run = (cmd: string, args: readonly string[]): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    child.stdout.on('data', (c: Buffer) => (out += c.toString('utf8')))
    child.stderr.on('data', (c: Buffer) => (out += c.toString('utf8')))
    child.on('close', (code) => resolve({ code: code ?? 1, out }))
  })

Streaming('chunked on HTTP/1.1: the exact bytes on the wire, for generators and ReadableStreams, bytes and text', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    for (const kind of ['bytes', 'text', 'rs']) {
      const text = await rawExchange(port, `GET /pieces?n=3&size=4&kind=${kind} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      assert.is(statusOf(text), 200)
      assert.match(headOf(text), /\r\nTransfer-Encoding: chunked\r\n/)
      assert.match(headOf(text), /\r\nContent-Type: text\/plain\r\n/)
      assert.match(headOf(text), new RegExp(`\r\nX-Kind: ${kind}`))
      assert.not.match(headOf(text), /Content-Length/)
      assert.is(bodyOf(text), '4\r\naaaa\r\n'.repeat(3) + '0\r\n\r\n', kind)
    }
    const res = await fetch(`http://127.0.0.1:${port}/pieces?n=50&size=1000`)
    assert.is((await res.text()).length, 50_000)
  } finally {
    await server.close()
  }
})

Streaming('Content-Length when the length is given; close-delimited on HTTP/1.0', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const sized = await rawExchange(port, 'GET /sized HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(headOf(sized), /\r\nContent-Length: 10\r\n/)
    assert.not.match(headOf(sized), /Transfer-Encoding/)
    assert.is(bodyOf(sized), 'aaaaaaaaaa')
    const old = await rawExchange(port, 'GET /pieces?n=2&size=3 HTTP/1.0\r\nHost: x\r\n\r\n')
    assert.is(statusOf(old), 200)
    assert.not.match(headOf(old), /Transfer-Encoding|Content-Length/)
    assert.match(headOf(old), /\r\nConnection: close/)
    assert.is(bodyOf(old), 'aaaaaa', 'the body ends with the connection')
  } finally {
    await server.close()
  }
})

Streaming('HEAD, 204 and 304: no body, and the source never started', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const head = await rawExchange(port, 'HEAD /counted HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(head), 200)
    assert.ok(head.endsWith('\r\n\r\n'), 'nothing after the head')
    for (const code of [204, 304]) {
      const text = await rawExchange(port, `GET /status/${code} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`)
      assert.is(statusOf(text), code)
      assert.not.match(text, /Transfer-Encoding|Content-Length/)
      assert.is(bodyOf(text), '')
    }
    await delay(50)
    assert.is(await server.probe('started'), 0)
  } finally {
    await server.close()
  }
})

Streaming('pipelined requests behind a streamed answer are answered after it, in order; keep-alive goes on', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const conn = await rawConnect(port)
    conn.write('GET /pieces?n=5&size=2 HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /sized HTTP/1.1\r\nHost: x\r\n\r\n')
    const first = (await conn.until((b) => b.toString('latin1').includes('aaaaaaaaaa'))).toString('latin1')
    const answers = first.split('HTTP/1.1 ').slice(1)
    assert.is(answers.length, 3)
    assert.is(bodyOf(answers[0] ?? ''), '2\r\naa\r\n'.repeat(5) + '0\r\n\r\n')
    assert.is(bodyOf(answers[1] ?? ''), '{"hello":"world"}')
    assert.is(bodyOf(answers[2] ?? ''), 'aaaaaaaaaa')
    // The connection is still open: one more request on it.
    conn.write('GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const all = (await conn.closed()).toString('latin1')
    assert.is(all.split('HTTP/1.1 ').length - 1, 4)
  } finally {
    await server.close()
  }
})

Streaming('backpressure: a client that does not read stops the pulls; reading resumes them', async () => {
  const { server, port } = await serve('streaming', 'main', patient)
  try {
    const conn = await rawConnect(port)
    conn.socket.pause()
    conn.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n')
    await eventually(async () => (await server.probe('pulls')) > 0, 2000, 'the source to start')
    // The kernel's buffers fill, then the pulls stop.
    let last = -1
    await eventually(
      async () => {
        const now = await server.probe('pulls')
        const still = now === last
        last = now
        await delay(100)
        return still
      },
      5000,
      'the pulls to stop',
    )
    await delay(300)
    assert.is(await server.probe('pulls'), last, 'bounded while the client does not read')
    assert.ok(last < 2000, `bounded by the socket buffers (${last} pieces of 16 KiB)`)
    conn.socket.resume()
    await eventually(async () => (await server.probe('pulls')) > last + 50, 3000, 'the pulls to resume')
    conn.socket.destroy()
    await eventually(async () => (await server.probe('finished')) === 1, 3000, 'the source to be cancelled')
  } finally {
    await server.close()
  }
})

Streaming('a client destroyed mid-stream: the source is cancelled and req.signal aborts', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const conn = await rawConnect(port)
    conn.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n')
    await conn.until((b) => b.length > 100_000)
    conn.socket.destroy()
    await eventually(async () => (await server.probe('finished')) === 1 && (await server.probe('aborted')) === 1, 2000, 'cancel and abort')
    assert.is((await fetch(`http://127.0.0.1:${port}/hello`)).status, 200)
  } finally {
    await server.close()
  }
})

Streaming('a client that stops reading (half-open) is cancelled within about one heartbeat', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const conn = await rawConnect(port)
    conn.socket.pause()
    conn.write('GET /endless HTTP/1.1\r\nHost: x\r\n\r\n')
    // Blocked once the pulls stop; from then on, one heartbeat (and a sweep) at most.
    let last = -1
    await eventually(
      async () => {
        const now = await server.probe('pulls')
        const still = now === last && now > 0
        last = now
        await delay(25)
        return still
      },
      5000,
      'the pulls to stop',
    )
    const blocked = Date.now()
    await eventually(async () => (await server.probe('finished')) === 1, 3 * HEARTBEAT + 1000, 'the source to be cancelled')
    const took = Date.now() - blocked
    assert.ok(took <= 2 * HEARTBEAT + 200, `cancelled ${took} ms after the socket stopped taking (heartbeat ${HEARTBEAT} ms)`)
    assert.is(await server.probe('aborted'), 1)
    conn.socket.destroy()
  } finally {
    await server.close()
  }
})

Streaming('a source silent for streamIdleMs is cancelled; the client sees a cut body', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const started = Date.now()
    const text = await rawExchange(port, 'GET /silent HTTP/1.1\r\nHost: x\r\n\r\n', 3000)
    const took = Date.now() - started
    assert.is(statusOf(text), 200)
    assert.ok(bodyOf(text).startsWith('17\r\none piece, then nothing\r\n'))
    assert.not.ok(text.endsWith('0\r\n\r\n'), 'no last chunk')
    assert.ok(took >= 350 && took < 2000, `after streamIdleMs (${took} ms)`)
    await eventually(async () => (await server.probe('finished')) === 1 && (await server.probe('aborted')) === 1, 2000, 'cancel and abort')
  } finally {
    await server.close()
  }
})

Streaming('a source that throws: a truncated chunked body, logged with the route, other connections untouched', async () => {
  const { server, port, url } = await serve('streaming', 'main', options)
  try {
    const other = await rawConnect(port)
    other.write('GET /pieces?n=20&size=10 HTTP/1.1\r\nHost: x\r\n\r\n')
    const text = await rawExchange(port, 'GET /throws HTTP/1.1\r\nHost: x\r\n\r\n')
    assert.is(statusOf(text), 200)
    assert.is(bodyOf(text), 'e\r\na good start, \r\n', 'cut after the good piece, no last chunk')
    await other.until((b) => b.toString('latin1').endsWith('0\r\n\r\n'))
    assert.not.ok(other.socket.destroyed, 'the other connection stays open')
    other.write('GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match((await other.closed()).toString('latin1'), /\{"hello":"world"\}$/)
    const logged = (await server.records()).find((r) => r.level === 'error')
    assert.ok(logged !== undefined, 'logged')
    assert.is(logged?.context.path, '/throws')
    assert.match(String(logged?.context.exception), /the source broke/)
    assert.is((await fetch(`${url}/hello`)).status, 200)
  } finally {
    await server.close()
  }
})

Streaming('streamed request bodies: Content-Length and chunked (fetch with a stream, duplex half)', async () => {
  const { server, url } = await serve('streaming', 'main', options)
  try {
    const data = randomBytes(3 * 1024 * 1024 + 17)
    const sized = await fetch(`${url}/hash`, { method: 'POST', body: data })
    assert.equal(await sized.json(), { size: data.length, sha256: sha256(data) })
    const body = new ReadableStream<Uint8Array>({
      start: (c) => {
        for (let at = 0; at < data.length; at += 100_000) c.enqueue(data.subarray(at, at + 100_000))
        c.close()
      },
    })
    const chunked = await fetch(`${url}/hash`, { method: 'POST', body, duplex: 'half' } as RequestInit)
    assert.equal(await chunked.json(), { size: data.length, sha256: sha256(data) })
  } finally {
    await server.close()
  }
})

Streaming('per-route maxBody: 413 at once for a Content-Length past it, and mid-way for chunked; the connection closed', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const conn = await rawConnect(port)
    conn.write('POST /limited HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n')
    const upfront = (await conn.closed()).toString('latin1')
    assert.is(statusOf(upfront), 413)
    assert.match(bodyOf(upfront), /body_too_large/)
    const chunked = await rawConnect(port)
    chunked.write('POST /limited HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n258\r\n' + 'x'.repeat(600) + '\r\n')
    await delay(50)
    chunked.write('258\r\n' + 'y'.repeat(600) + '\r\n')
    const midway = (await chunked.closed()).toString('latin1')
    assert.is(statusOf(midway), 413)
    assert.is(midway.split('HTTP/1.1 ').length - 1, 1, 'one answer')
    await eventually(async () => (await server.probe('error')) === 'BodyStreamError', 2000, 'the handler to see the error')
    // Within the limit, and the server-wide limit for a route without its own.
    const ok = await rawExchange(port, 'POST /limited HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\nConnection: close\r\n\r\n' + 'z'.repeat(1000))
    assert.is(statusOf(ok), 200)
    const big = await rawExchange(port, 'POST /buffered HTTP/1.1\r\nHost: x\r\nContent-Length: 3000\r\n\r\n' + 'z'.repeat(3000))
    assert.is(statusOf(big), 413)
    const small = await rawExchange(port, 'POST /buffered HTTP/1.1\r\nHost: x\r\nContent-Length: 1500\r\nConnection: close\r\n\r\n' + 'z'.repeat(1500))
    assert.match(small, /\{"size":1500\}$/)
  } finally {
    await server.close()
  }
})

Streaming('Expect: 100-continue: a middleware answering 401 gets no 100 and no body read; accepted, 100 once the handler reads', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const refused = await rawConnect(port)
    refused.write('POST /guarded HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n')
    const answer = (await refused.until((b) => b.includes('\r\n\r\n{'))).toString('latin1')
    assert.is(statusOf(answer), 401)
    assert.not.match(answer, /100 Continue/)
    refused.socket.destroy()
    assert.is(await server.probe('bodyRead'), false)
    const accepted = await rawConnect(port)
    accepted.write('POST /guarded HTTP/1.1\r\nHost: x\r\nAuthorization: yes\r\nContent-Length: 5\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n')
    const cont = (await accepted.until((b) => b.includes('\r\n\r\n'))).toString('latin1')
    assert.is(cont, 'HTTP/1.1 100 Continue\r\n\r\n')
    accepted.write('hello')
    const done = (await accepted.closed()).toString('latin1')
    assert.match(done, /HTTP\/1\.1 200 OK[^]*\{"text":"hello"\}$/)
  } finally {
    await server.close()
  }
})

Streaming('a route that reads its body whole: the middleware runs on the head; refused under Expect: 100-continue, 401 with no 100, the body never read, the connection closed at once', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const refused = await rawConnect(port)
    refused.write('POST /guarded-whole HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n')
    // The server does not wait for the body: it answers and closes.
    const answer = (await refused.closed(1000)).toString('latin1')
    assert.is(statusOf(answer), 401)
    assert.not.match(answer, /100 Continue/)
    assert.match(headOf(answer), /\r\nConnection: close/)
    assert.is(await server.probe('wholeRead'), false)
    const accepted = await rawConnect(port)
    accepted.write('POST /guarded-whole HTTP/1.1\r\nHost: x\r\nAuthorization: yes\r\nContent-Length: 5\r\nExpect: 100-continue\r\n\r\n')
    const cont = (await accepted.until((b) => b.includes('\r\n\r\n'))).toString('latin1')
    assert.is(cont, 'HTTP/1.1 100 Continue\r\n\r\n')
    assert.is(await server.probe('middlewareSaw'), 0)
    accepted.write('hello' + 'GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    const done = (await accepted.closed()).toString('latin1')
    assert.match(done, /HTTP\/1\.1 200 OK[^]*\{"text":"hello"\}HTTP\/1\.1 200 OK[^]*\{"hello":"world"\}$/)
  } finally {
    await server.close()
  }
})

Streaming('a refused request: the middleware sees no body, however the bytes were cut; a body sent whole is dropped and the requests after it answered; one that follows unread closes the connection, never read as requests', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    // The whole body with the head, a request pipelined behind it: both answered, in order.
    const whole = await rawExchange(port, 'POST /guarded-whole HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\nhello' + 'GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(whole, /^HTTP\/1\.1 401 [^]*HTTP\/1\.1 200 OK[^]*\{"hello":"world"\}$/)
    assert.is(await server.probe('middlewareSaw'), 0)
    // The body still to come holds what looks like a request: it is never answered.
    const smuggled = 'GET /hello HTTP/1.1\r\nHost: x\r\n\r\n'
    const cut = await rawConnect(port)
    cut.write(`POST /guarded-whole HTTP/1.1\r\nHost: x\r\nContent-Length: ${smuggled.length + 10}\r\n\r\n`)
    await delay(50)
    cut.write(smuggled)
    const text = (await cut.closed()).toString('latin1')
    assert.is(statusOf(text), 401)
    assert.not.match(text, /hello/)
    assert.is(await server.probe('wholeRead'), false)
  } finally {
    await server.close()
  }
})

Streaming('a chunked body to a route that reads it whole: accepted, read after the middleware (100 first); refused, 401 without 100; past maxBody, 413 as it crosses', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const accepted = await rawConnect(port)
    accepted.write('POST /guarded-whole HTTP/1.1\r\nHost: x\r\nAuthorization: yes\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n')
    assert.is((await accepted.until((b) => b.includes('\r\n\r\n'))).toString('latin1'), 'HTTP/1.1 100 Continue\r\n\r\n')
    accepted.write('3\r\nhel\r\n')
    await delay(20)
    accepted.write('2\r\nlo\r\n0\r\n\r\n')
    assert.match((await accepted.closed()).toString('latin1'), /200 OK[^]*\{"text":"hello"\}$/)
    const refused = await rawConnect(port)
    refused.write('POST /guarded-whole HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\n\r\n')
    const answer = (await refused.closed(1000)).toString('latin1')
    assert.is(statusOf(answer), 401)
    assert.not.match(answer, /100 Continue/)
    const big = await rawConnect(port)
    big.write('POST /guarded-whole HTTP/1.1\r\nHost: x\r\nAuthorization: yes\r\nTransfer-Encoding: chunked\r\n\r\n')
    big.write('3e8\r\n' + 'z'.repeat(1000) + '\r\n')
    await delay(20)
    big.write('3e8\r\n' + 'z'.repeat(1000) + '\r\n' + '3e8\r\n' + 'z'.repeat(1000) + '\r\n')
    const tooBig = (await big.closed()).toString('latin1')
    assert.is(statusOf(tooBig), 413)
  } finally {
    await server.close()
  }
})

Streaming('a handler that does not read: the server pauses reading and holds a bounded number of bytes', async () => {
  const { server, port } = await serve('streaming', 'main', patient)
  try {
    const size = 32 * 1024 * 1024
    const data = randomBytes(size)
    const conn = await rawConnect(port)
    conn.write(`POST /lazy HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\nConnection: close\r\n\r\n`)
    conn.write(data)
    await delay(600)
    const held = await server.probe('received')
    assert.ok(held >= 0 && held < 2 * 1024 * 1024, `the server took ${held} bytes of ${size}`)
    assert.ok(conn.socket.writableLength > size / 2, `the client's writes back up (${conn.socket.writableLength} bytes waiting)`)
    assert.ok(await server.probe('release'))
    const done = (await conn.closed(10_000)).toString('latin1')
    assert.is(statusOf(done), 200)
    assert.equal(JSON.parse(bodyOf(done)), { size, sha256: sha256(data) })
  } finally {
    await server.close()
  }
})

Streaming('a client that dies mid-upload: the handler\'s read throws BodyStreamError and req.signal aborts', async () => {
  const { server, port } = await serve('streaming', 'main', options)
  try {
    const conn = await rawConnect(port)
    conn.write('POST /vanishing HTTP/1.1\r\nHost: x\r\nContent-Length: 1000000\r\n\r\n')
    conn.write(new Uint8Array(100_000))
    await delay(100)
    conn.socket.destroy()
    await eventually(async () => (await server.probe('error')) === 'BodyStreamError' && (await server.probe('aborted')) === 1, 2000, 'the error and the abort')
  } finally {
    await server.close()
  }
})

// Files of 0 B, a few bytes and a few MiB, with a field, through curl -F and through FormData.
const FILES: readonly [string, Uint8Array][] = [
  ['empty.bin', new Uint8Array(0)],
  ['small.txt', new TextEncoder().encode('hello, multipart\r\n--not a boundary\r\n')],
  ['big.bin', randomBytes(3 * 1024 * 1024 + 5)],
]
const expected = FILES.map(([filename, data], i) => ({ field: `f${i}`, filename, size: data.length, sha256: sha256(data) }))

for (const [app, path] of [['main', '/form'], ['echo', '/upload']] as const) {
  Streaming(`multipart ${path} (${app}): curl -F and FormData, files hashed as they arrive`, async () => {
    const { server, url } = await serve('streaming', app, options)
    const dir = await mkdtemp(join(tmpdir(), 'twinport-multipart-'))
    try {
      const args = ['-sS', '--max-time', '20', '-F', 'title=Holiday é']
      for (const [i, [filename, data]] of FILES.entries()) {
        await writeFile(join(dir, filename), data)
        args.push('-F', `f${i}=@${join(dir, filename)}`)
      }
      const curl = await run('curl', [...args, `${url}${path}`])
      assert.is(curl.code, 0, curl.out)
      assert.equal(JSON.parse(curl.out), { fields: { title: 'Holiday é' }, files: expected })
      const form = new FormData()
      form.append('title', 'Holiday é')
      for (const [i, [filename, data]] of FILES.entries()) form.append(`f${i}`, new Blob([data as Uint8Array<ArrayBuffer>]), filename)
      const res = await fetch(`${url}${path}`, { method: 'POST', body: form })
      assert.equal(await res.json(), { fields: { title: 'Holiday é' }, files: expected })
      const bad = await fetch(`${url}${path}`, { method: 'POST', body: 'not a form', headers: { 'content-type': 'text/plain' } })
      assert.is(bad.status, 415)
    } finally {
      await rm(dir, { recursive: true, force: true })
      await server.close()
    }
  })
}

Streaming('the echo app: GET /stream?chunks=N&size=S streams N chunks of S bytes of "a", chunked', async () => {
  const { server, port, url } = await serve('streaming', 'echo', options)
  try {
    const text = await rawExchange(port, 'GET /stream?chunks=3&size=5 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.match(headOf(text), /\r\nTransfer-Encoding: chunked\r\n/)
    assert.is(bodyOf(text), '5\r\naaaaa\r\n'.repeat(3) + '0\r\n\r\n')
    const res = await fetch(`${url}/stream?chunks=100&size=10000`)
    const body = new Uint8Array(await res.arrayBuffer())
    assert.is(body.length, 1_000_000)
    assert.ok(body.every((b) => b === 0x61))
    assert.is((await fetch(`${url}/stream?chunks=x`)).status, 400)
  } finally {
    await server.close()
  }
})

Streaming.run()

/**
 * `toFetch` under real fetch hosts: `Bun.serve` run by Bun and `Deno.serve` run by Deno
 * (spec/support/fetch-host.ts, one process per runtime, started on a free port and stopped at
 * the end), driven from Node with `fetch` and raw sockets: routing, middleware, CORS, limits,
 * streamed bodies both ways over the wire, the source cancelled when the client goes away,
 * error answers, and `twinport/client`'s fallback over an event stream the host serves. A runtime whose binary is missing is skipped with a note.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { eventually, rawExchange, statusOf } from '../support/server.js'
import { WebSocketImpl } from '../support/client.js'
import { connect } from '../../lib/client/connect.js'
import { sseFallback } from '../../lib/client/fallback.js'

interface Host {
  readonly child: ChildProcess
  readonly url: string
  readonly port: number
}

const BUN = 'node_modules/bun/bin/bun.exe'
const DENO = 'node_modules/deno/bin.cjs'
const HOSTS = [
  { name: 'Bun.serve', present: existsSync(BUN), command: BUN, args: ['spec/support/fetch-host.ts'] },
  {
    name: 'Deno.serve',
    present: existsSync(DENO),
    command: process.execPath,
    args: [DENO, 'run', '-A', '--quiet', '--sloppy-imports', '--node-modules-dir=manual', 'spec/support/fetch-host.ts'],
  },
] as const

// Starts the host; resolves once it printed its port (within 30 s).
const start = (command: string, args: readonly string[]): Promise<Host> =>
  new Promise((resolve, reject) => {
    // Its stderr is kept, not shown: the runtimes print the stream failures the specs provoke.
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString('utf8')))
    const timer = setTimeout(() => reject(new Error(`${command}: no port within 30 s\n${err}`)), 30_000)
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString('utf8')
      const line = /\{"port":(\d+)\}/.exec(out)
      if (line === null) return
      clearTimeout(timer)
      const port = Number(line[1])
      resolve({ child, port, url: `http://127.0.0.1:${port}` })
    })
    child.on('exit', (code) => reject(new Error(`${command} exited with ${code} before listening\n${err}`)))
  })

// Closing its stdin stops it; it is killed if it has not gone within 5 s.
const stop = (host: Host): Promise<void> =>
  new Promise((resolve) => {
    if (host.child.exitCode !== null) return resolve()
    const timer = setTimeout(() => host.child.kill('SIGKILL'), 5000)
    host.child.on('exit', () => {
      clearTimeout(timer)
      resolve()
    })
    host.child.stdin?.end()
  })

const seenBy = async (host: Host): Promise<string[]> => ((await (await fetch(`${host.url}/seen`)).json()) as { seen: string[] }).seen

const piecesOfSize = (size: number): ReadableStream<Uint8Array> => {
  let left = size
  return new ReadableStream<Uint8Array>({
    pull: (controller) => {
      if (left === 0) return controller.close()
      const n = Math.min(1000, left)
      left -= n
      controller.enqueue(new Uint8Array(n).fill(0x63))
    },
  })
}
const post = (url: string, body: BodyInit, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(url, { method: 'POST', body, headers, ...(body instanceof ReadableStream ? { duplex: 'half' } : {}) } as RequestInit)

for (const { name, present, command, args } of HOSTS) {
  const Host = suite<{ host?: Host }>(`toFetch under ${name}`, {})
  if (!present) {
    Host('skipped: the runtime is not installed', () => console.log(`[to-fetch-hosts] ${command} missing: ${name} skipped`))
    Host.run()
    continue
  }
  Host.before(async (context) => {
    context.host = await start(command, args)
  })
  Host.after(async (context) => {
    if (context.host !== undefined) await stop(context.host)
  })

  Host('routes, middleware, 404, 405 with Allow, HEAD, CORS', async ({ host }) => {
    const { url } = host as Host
    const hello = await fetch(`${url}/hello`, { headers: { origin: 'https://app.test' } })
    assert.is(hello.status, 200)
    assert.is(hello.headers.get('x-middleware'), 'GET')
    assert.is(hello.headers.get('access-control-allow-origin'), 'https://app.test')
    assert.equal(await hello.json(), { hello: 'world' })
    assert.equal(await (await fetch(`${url}/users/a%20b?full=1`)).json(), { id: 'a b', full: '1' })
    assert.is((await fetch(`${url}/nope`)).status, 404)
    const wrong = await fetch(`${url}/hello`, { method: 'DELETE' })
    assert.is(wrong.status, 405)
    assert.is(wrong.headers.get('allow'), 'GET, HEAD')
    const head = await rawExchange((host as Host).port, 'HEAD /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(head), 200)
    assert.ok(head.endsWith('\r\n\r\n'), 'no body after the head')
    assert.match(head, /\r\ncontent-length: 17\r\n/i, 'the length of the GET answer')
    const preflight = await fetch(`${url}/echo`, { method: 'OPTIONS', headers: { origin: 'https://app.test', 'access-control-request-method': 'POST' } })
    assert.is(preflight.status, 204)
  })

  Host('buffered bodies: echoed, 413 past limits.maxBody and past a route maxBody', async ({ host }) => {
    const { url } = host as Host
    const echoed = await post(`${url}/echo`, 'hello there', { 'content-type': 'text/x-greeting' })
    assert.is(echoed.headers.get('content-type'), 'text/x-greeting')
    assert.is(await echoed.text(), 'hello there')
    assert.is((await post(`${url}/echo`, 'x'.repeat(1001))).status, 413)
    assert.is((await post(`${url}/echo`, piecesOfSize(1001))).status, 413, 'chunked, no length')
    assert.equal(await (await post(`${url}/small`, '0123456789')).json(), { size: 10 })
    assert.is((await post(`${url}/small`, '0123456789a')).status, 413)
  })

  Host('a streamed request body: read as it arrives, 413 past the route maxBody', async ({ host }) => {
    const { url } = host as Host
    assert.equal(await (await post(`${url}/upload`, piecesOfSize(50_000))).json(), { size: 50_000, pieces: true })
    assert.equal(await (await post(`${url}/upload`, new Uint8Array(70_000))).json(), { size: 70_000, pieces: true })
    assert.is((await post(`${url}/upload`, piecesOfSize(100_001))).status, 413)
  })

  Host('a streamed answer: chunked when unsized, Content-Length when sized, cut when the source fails', async ({ host }) => {
    const { url, port } = host as Host
    const wire = await rawExchange(port, 'GET /stream?chunks=3&size=4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')
    assert.is(statusOf(wire), 200)
    assert.match(wire.toLowerCase(), /\r\ntransfer-encoding: chunked\r\n/)
    assert.is(await (await fetch(`${url}/stream?chunks=3&size=4`)).text(), 'a'.repeat(12))
    assert.is((await (await fetch(`${url}/stream?chunks=300&size=1000`)).arrayBuffer()).byteLength, 300_000)
    const sized = await fetch(`${url}/sized`)
    assert.is(sized.headers.get('content-length'), '10')
    assert.is(await sized.text(), 'a'.repeat(10))
    assert.is(await (await fetch(`${url}/rs`)).text(), 'from a stream')
    const failing = await fetch(`${url}/failing`)
    await failing.text().then(
      () => assert.unreachable('a failed body ended as if whole'),
      () => undefined,
    )
    assert.is((await fetch(`${url}/boom`)).status, 500)
  })

  Host('the client going away cancels the streamed source', async ({ host }) => {
    const { url } = host as Host
    const controller = new AbortController()
    const res = await fetch(`${url}/forever`, { signal: controller.signal })
    const reader = (res.body as ReadableStream<Uint8Array>).getReader()
    assert.ok(((await reader.read()).value?.length ?? 0) > 0)
    controller.abort()
    await eventually(async () => (await seenBy(host as Host)).includes('forever: cancelled'), 5000, 'the source cancelled')
  })

  Host('req.signal aborts when the client goes away before the answer', async ({ host }) => {
    const { url } = host as Host
    const controller = new AbortController()
    const answer = fetch(`${url}/waiting`, { signal: controller.signal }).catch(() => undefined)
    await eventually(async () => (await seenBy(host as Host)).includes('waiting: started'), 5000, 'the handler started')
    controller.abort()
    await answer
    await eventually(async () => (await seenBy(host as Host)).includes('waiting: aborted'), 5000, 'req.signal aborted')
  })

  Host("the client's fallback: connect() goes on over the event stream and POST (acks, broadcasts both ways, from HTTP too)", async ({ host }) => {
    const { url } = host as Host
    // The WebSocket upgrade is answered by the route (406: it is no event-stream request): the client falls back.
    const client = connect(`${url}/events`, { WebSocket: WebSocketImpl, fallback: sseFallback({ probeInterval: 600_000 }), timeout: 5000 })
    const said: unknown[] = []
    client.on('said', (data: unknown) => void said.push(data))
    try {
      assert.is(await client.request('double', 21), 42)
      client.emit('say', 'over SSE')
      await eventually(() => said.includes('over SSE'), 5000, 'its own broadcast back on the stream')
      assert.is((await post(`${url}/shout`, 'from HTTP')).status, 200)
      await eventually(() => said.includes('from HTTP'), 5000, "an HTTP handler's broadcast")
      assert.equal(said, ['over SSE', 'from HTTP'])
    } finally {
      client.close()
    }
  })

  Host('an event stream whose client goes away stops being a client', async ({ host }) => {
    const { url } = host as Host
    const members = async (): Promise<number> => ((await (await fetch(`${url}/members`)).json()) as { members: number }).members
    const controller = new AbortController()
    const res = await fetch(`${url}/events`, { headers: { accept: 'text/event-stream' }, signal: controller.signal })
    try {
      assert.equal([res.status, res.headers.get('content-type')], [200, 'text/event-stream; charset=utf-8'])
      await eventually(async () => (await members()) === 1, 5000, 'the stream a client')
    } finally {
      controller.abort()
    }
    await eventually(async () => (await members()) === 0, 5000, 'the client gone with its connection')
  })

  Host.run()
}

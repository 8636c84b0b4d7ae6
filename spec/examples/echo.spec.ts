/**
 * `npm run example:echo` (examples/echo.ts, DESIGN §4) as a process, with real clients:
 * WebSocket text and binary echoed verbatim (up to 16 MiB), `/bcast` clients sharing every
 * message (sender included), `GET /hello`, and `POST /echo` returning body and type.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { scriptCommand, targetRuntime } from '../support/runtimes.js'
import WebSocket, { type RawData } from 'ws'

// The server runs in the runtime TWINPORT_TARGET names; the clients here are Node's.
const runtime = targetRuntime()
const target = scriptCommand(runtime, 'examples/echo.ts')
const WAIT_MS = 15_000

interface Ctx {
  child: ChildProcess | undefined
  port: string
}

const echo = suite<Ctx>(`examples/echo.ts on ${runtime}`, { child: undefined, port: '' })

const bounded = <A>(what: string, run: (resolve: (a: A) => void, reject: (e: Error) => void) => void): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms`)), WAIT_MS)
    run(
      (a) => {
        clearTimeout(timer)
        resolve(a)
      },
      (e) => {
        clearTimeout(timer)
        reject(e)
      },
    )
  })

// Starts the echo example with `env` added; resolves with the process and its port.
const startEcho = async (env: Readonly<Record<string, string>>): Promise<{ child: ChildProcess; port: string }> => {
  const child = spawn(target.command, [...target.args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const port = await bounded<string>('echo server start', (resolve) => {
    let seen = ''
    const look = (chunk: Buffer): void => {
      seen += chunk.toString('utf8')
      const port = /listening on 127\.0\.0\.1:(\d+)/.exec(seen)?.[1]
      if (port !== undefined) resolve(port)
    }
    child.stdout.on('data', look)
    child.stderr.on('data', look)
  })
  return { child, port }
}

const stopEcho = async (child: ChildProcess | undefined): Promise<void> => {
  if (child === undefined || child.exitCode !== null) return
  const gone = bounded<number | null>('echo server exit', (resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  try {
    assert.is(await gone, 0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
}

echo.before(async (ctx) => {
  const { child, port } = await startEcho({})
  ctx.child = child
  ctx.port = port
})

echo.after((ctx) => stopEcho(ctx.child))

const open = (port: string, path = '/', perMessageDeflate = false): Promise<WebSocket> => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { maxPayload: 32 * 1024 * 1024, perMessageDeflate })
  return bounded('open', (resolve, reject) => {
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })
}

// What the server answered to the client's permessage-deflate offer.
const answerOf = (port: string, path = '/'): Promise<string | undefined> => {
  const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`, { perMessageDeflate: true })
  return bounded('upgrade', (resolve, reject) => {
    ws.once('upgrade', (res) => {
      resolve(res.headers['sec-websocket-extensions'] as string | undefined)
      ws.once('open', () => ws.close())
    })
    ws.once('error', reject)
  })
}

const nextMessage = (ws: WebSocket): Promise<{ data: RawData; isBinary: boolean }> =>
  bounded('message', (resolve) => ws.once('message', (data, isBinary) => resolve({ data, isBinary })))

echo('echo :: text and binary messages come back verbatim, 16 MiB included', async (ctx) => {
  const ws = await open(ctx.port)
  try {
    const text = nextMessage(ws)
    ws.send('héllo {"event":"not parsed"}')
    const t = await text
    assert.is(t.isBinary, false)
    assert.is(String(t.data), 'héllo {"event":"not parsed"}')

    const bytes = Buffer.from([0, 1, 2, 255, 254])
    const binary = nextMessage(ws)
    ws.send(bytes)
    const b = await binary
    assert.is(b.isBinary, true)
    assert.ok(Buffer.from(b.data as Buffer).equals(bytes))

    const big = Buffer.alloc(16 * 1024 * 1024, 7)
    big[big.length - 1] = 9
    const large = nextMessage(ws)
    ws.send(big)
    const l = await large
    assert.ok(Buffer.from(l.data as Buffer).equals(big))
  } finally {
    ws.close()
  }
})

echo('/bcast :: each message reaches every /bcast client, the sender included, and no one else', async (ctx) => {
  const [a, b, other] = [await open(ctx.port, '/bcast'), await open(ctx.port, '/bcast'), await open(ctx.port, '/')]
  try {
    let otherGot = 0
    other.on('message', () => (otherGot += 1))
    const atA = nextMessage(a)
    const atB = nextMessage(b)
    a.send('to everyone')
    assert.is(String((await atA).data), 'to everyone')
    assert.is(String((await atB).data), 'to everyone')
    // The plain client still echoes its own message only.
    const back = nextMessage(other)
    other.send('just me')
    assert.is(String((await back).data), 'just me')
    assert.is(otherGot, 1)
  } finally {
    for (const ws of [a, b, other]) ws.close()
  }
})

echo('GET /hello :: {"hello":"world"} as JSON', async (ctx) => {
  const res = await fetch(`http://127.0.0.1:${ctx.port}/hello`, { signal: AbortSignal.timeout(WAIT_MS) })
  assert.is(res.status, 200)
  assert.is(res.headers.get('content-type'), 'application/json')
  assert.equal(await res.json(), { hello: 'world' })
})

echo('POST /echo :: 200 with the body as received and its content type', async (ctx) => {
  const body = new Uint8Array([0x7b, 0x00, 0xff, 0x0a])
  const res = await fetch(`http://127.0.0.1:${ctx.port}/echo`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-odd; v=1' },
    body,
    signal: AbortSignal.timeout(WAIT_MS),
  })
  assert.is(res.status, 200)
  assert.is(res.headers.get('content-type'), 'application/x-odd; v=1')
  assert.equal(new Uint8Array(await res.arrayBuffer()), body)
})

echo('without DEFLATE :: an offer of permessage-deflate is not answered', async (ctx) => {
  assert.is(await answerOf(ctx.port), undefined)
})

echo('GET /static/... :: the files of examples/public/ with validators, compressed on request; a reload is 304', async (ctx) => {
  const base = `http://127.0.0.1:${ctx.port}/static`
  const page = await fetch(`${base}/`, { signal: AbortSignal.timeout(WAIT_MS) })
  assert.is(page.status, 200)
  assert.is(page.headers.get('content-type'), 'text/html; charset=utf-8')
  assert.match(await page.text(), '<h1>twinport echo</h1>')
  const css = await fetch(`${base}/site.css`, { headers: { 'Accept-Encoding': 'gzip' }, signal: AbortSignal.timeout(WAIT_MS) })
  // fetch decodes the gzip; the header says it was sent so.
  assert.is(css.headers.get('content-encoding'), 'gzip')
  assert.is(css.headers.get('vary'), 'Accept-Encoding')
  const sheet = await css.text()
  assert.ok(sheet.length > 2048)
  const br = await fetch(`${base}/site.css`, { headers: { 'Accept-Encoding': 'gzip;q=0.5, br' }, signal: AbortSignal.timeout(WAIT_MS) })
  assert.is(br.headers.get('content-encoding'), 'br')
  assert.is(await br.text(), sheet)
  const plain = await fetch(`${base}/site.css`, { headers: { 'Accept-Encoding': 'identity' }, signal: AbortSignal.timeout(WAIT_MS) })
  assert.is(plain.headers.get('content-encoding'), null)
  assert.is(plain.headers.get('content-length'), String(sheet.length))
  assert.is(await plain.text(), sheet)
  // The compressed answer's ETag is weak (RFC 9110 §8.8.1), and still answers a reload with 304.
  const again = await fetch(`${base}/site.css`, { headers: { 'If-None-Match': css.headers.get('etag') as string, 'Accept-Encoding': 'gzip' }, signal: AbortSignal.timeout(WAIT_MS) })
  assert.is(again.status, 304)
  const hello = await fetch(`http://127.0.0.1:${ctx.port}/hello`, { headers: { 'Accept-Encoding': 'gzip' }, signal: AbortSignal.timeout(WAIT_MS) })
  assert.is(hello.headers.get('vary'), null, 'only /static/ is compressed')
})

echo.run()

// `DEFLATE=1 npm run example:echo`: the same app with permessage-deflate offered (RFC 7692).
const echoDeflate = suite<Ctx>(`examples/echo.ts on ${runtime} with DEFLATE=1`, { child: undefined, port: '' })

echoDeflate.before(async (ctx) => {
  const { child, port } = await startEcho({ DEFLATE: '1' })
  ctx.child = child
  ctx.port = port
})

echoDeflate.after((ctx) => stopEcho(ctx.child))

// A realistic, compressible JSON text of about `size` bytes.
const jsonText = (size: number): string => {
  const rows: string[] = []
  for (let i = 0, length = 0; length < size; i++) {
    const row = JSON.stringify({ id: i, user: `user-${i}`, online: i % 2 === 0 })
    rows.push(row)
    length += row.length + 1
  }
  return `{"event":"roster","data":[${rows.join(',')}]}`
}

echoDeflate('DEFLATE=1 :: permessage-deflate answered; compressed messages, 16 MiB included, come back verbatim', async (ctx) => {
  assert.is(await answerOf(ctx.port), 'permessage-deflate; server_no_context_takeover')
  const ws = await open(ctx.port, '/', true)
  try {
    for (const message of [jsonText(4096), 'small', jsonText(1 << 20)]) {
      const back = nextMessage(ws)
      ws.send(message)
      assert.is(String((await back).data), message)
    }
    const big = Buffer.alloc(16 * 1024 * 1024, 7)
    big[big.length - 1] = 9
    const large = nextMessage(ws)
    ws.send(big)
    const l = await large
    assert.is(l.isBinary, true)
    assert.ok(Buffer.from(l.data as Buffer).equals(big))
  } finally {
    ws.close()
  }
})

echoDeflate('DEFLATE=1 :: /bcast reaches compressing and plain clients alike', async (ctx) => {
  const clients = [await open(ctx.port, '/bcast', true), await open(ctx.port, '/bcast', false), await open(ctx.port, '/bcast', true)]
  try {
    const message = jsonText(4096)
    const got = clients.map((ws) => nextMessage(ws))
    clients[1]!.send(message)
    for (const g of got) assert.is(String((await g).data), message)
  } finally {
    for (const ws of clients) ws.close()
  }
})

echoDeflate('DEFLATE=yes :: refused at start-up, naming the variable', async () => {
  const child = spawn(target.command, [...target.args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0', DEFLATE: 'yes' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')))
  const code = await bounded<number | null>('echo server exit', (resolve) => child.once('exit', (c) => resolve(c)))
  assert.is(code, 2)
  assert.match(stderr, /DEFLATE: expected 1 \(compression on\) or 0 \(off\), got "yes"/)
})

echoDeflate.run()

/**
 * `npm run example:attach` (examples/attach.ts, DESIGN §8) as a process, with real clients:
 * the Express app's own `GET /legacy` answers `text/plain` `legacy`, and on the same port
 * twinport serves the echo routes (`GET /hello`, `POST /echo`) and the WebSocket echo (text
 * and binary verbatim, the `/bcast` room); what neither has is Express's 404. Node only.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket, { type RawData } from 'ws'
import { scriptCommand } from '../support/runtimes.js'

const target = scriptCommand('node', 'examples/attach.ts')
const WAIT_MS = 15_000

const attached = suite<{ child: ChildProcess | undefined; port: string }>('examples/attach.ts: Express with twinport attached', { child: undefined, port: '' })

attached.before(async (ctx) => {
  const child = spawn(target.command, [...target.args], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  ctx.child = child
  ctx.port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within ${WAIT_MS} ms`)), WAIT_MS)
    let seen = ''
    const look = (chunk: Buffer): void => {
      seen += chunk.toString('utf8')
      const port = /listening on 127\.0\.0\.1:(\d+)/.exec(seen)?.[1]
      if (port !== undefined) {
        clearTimeout(timer)
        resolve(port)
      }
    }
    child.stdout.on('data', look)
    child.stderr.on('data', look)
  })
})

attached.after(async (ctx) => {
  const child = ctx.child
  if (child === undefined || child.exitCode !== null) return
  const gone = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
  child.kill('SIGTERM')
  const code = await Promise.race([gone, new Promise<string>((resolve) => setTimeout(() => resolve('timeout'), WAIT_MS))])
  if (child.exitCode === null) child.kill('SIGKILL')
  assert.is(code, 0)
})

attached("Express's GET /legacy, twinport's GET /hello and POST /echo, Express's 404, on one port", async ({ port }) => {
  const legacy = await fetch(`http://127.0.0.1:${port}/legacy`)
  assert.is(legacy.status, 200)
  assert.match(legacy.headers.get('content-type') ?? '', /^text\/plain/)
  assert.is(await legacy.text(), 'legacy')
  const hello = await fetch(`http://127.0.0.1:${port}/hello`)
  assert.equal(await hello.json(), { hello: 'world' })
  const echo = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body: 'ping', headers: { 'Content-Type': 'text/x-ping' } })
  assert.equal([echo.headers.get('content-type'), await echo.text()], ['text/x-ping', 'ping'])
  assert.is((await fetch(`http://127.0.0.1:${port}/nothing`)).status, 404)
})

const open = (port: string, path: string): Promise<WebSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}${path}`)
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })

const nextMessage = (ws: WebSocket): Promise<{ data: Buffer; binary: boolean }> =>
  new Promise((resolve) => ws.once('message', (data: RawData, binary: boolean) => resolve({ data: data as Buffer, binary })))

attached('the WebSocket echo (text and binary verbatim) and the /bcast room on the same port', async ({ port }) => {
  const ws = await open(port, '/')
  ws.send('hello text')
  const got = await nextMessage(ws)
  assert.equal([got.data.toString(), got.binary], ['hello text', false])
  ws.send(Buffer.from([0, 1, 2, 255]))
  const bin = await nextMessage(ws)
  assert.equal([[...bin.data], bin.binary], [[0, 1, 2, 255], true])
  ws.close()
  const [a, b] = await Promise.all([open(port, '/bcast'), open(port, '/bcast')])
  const both = Promise.all([nextMessage(a as WebSocket), nextMessage(b as WebSocket)])
  ;(a as WebSocket).send('to all')
  assert.equal((await both).map((m) => m.data.toString()), ['to all', 'to all'])
  a?.close()
  b?.close()
})

attached.run()

/**
 * `npm run example:echo` with `TLS_KEY` and `TLS_CERT` (examples/tls-from-env.ts), as a
 * process in the runtime TWINPORT_TARGET names, with Node's clients trusting only the test
 * authority: https GET and POST, wss echo and /bcast, a certificate reload on SIGHUP (a
 * warning on Bun, which cannot reload), and a refusal to start with only one of the two.
 * The name ends in `echo.spec.ts` so npm test runs it against every runtime's server.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { copyFileSync } from 'node:fs'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { scriptCommand, targetRuntime } from '../support/runtimes.js'
import { type Issued, makeTestCa, type TestCa } from '../support/test-certificates.js'
import { httpsRequest, secureConnect } from '../support/tls-clients.js'

const runtime = targetRuntime()
const target = scriptCommand(runtime, 'examples/echo.ts')
const WAIT_MS = 15_000

interface Ctx {
  ca: TestCa
  second: Issued
  keyPath: string
  certPath: string
  child: ChildProcess
  output: () => string
  port: number
}

const tlsEcho = suite<Ctx>(`examples/echo.ts with TLS_KEY/TLS_CERT on ${runtime}`, {} as Ctx)

// Resolves with the first match of `pattern` in what the process printed, within WAIT_MS.
const waitFor = async (ctx: Pick<Ctx, 'output'>, pattern: RegExp): Promise<RegExpExecArray> => {
  const until = Date.now() + WAIT_MS
  for (;;) {
    const match = pattern.exec(ctx.output())
    if (match !== null) return match
    if (Date.now() > until) throw new Error(`no ${pattern} within ${WAIT_MS} ms; printed: ${ctx.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

const start = (env: Record<string, string>): { child: ChildProcess; output: () => string } => {
  const child = spawn(target.command, [...target.args], { env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let seen = ''
  const keep = (chunk: Buffer): void => {
    seen += chunk.toString('utf8')
  }
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  return { child, output: () => seen }
}

tlsEcho.before(async (ctx) => {
  ctx.ca = makeTestCa()
  const first = ctx.ca.issue('echo-1')
  ctx.second = ctx.ca.issue('echo-2')
  // The files the server is pointed at; the reload test writes the second certificate over them.
  ctx.keyPath = join(ctx.ca.dir, 'served.key')
  ctx.certPath = join(ctx.ca.dir, 'served.pem')
  copyFileSync(first.keyPath, ctx.keyPath)
  copyFileSync(first.certPath, ctx.certPath)
  const { child, output } = start({ TLS_KEY: ctx.keyPath, TLS_CERT: ctx.certPath })
  ctx.child = child
  ctx.output = output
  ctx.port = Number((await waitFor(ctx, /listening on 127\.0\.0\.1:(\d+)/))[1])
})

tlsEcho.after(async (ctx) => {
  try {
    if (ctx.child !== undefined && ctx.child.exitCode === null) {
      const gone = new Promise((resolve) => ctx.child.once('exit', resolve))
      ctx.child.kill('SIGTERM')
      await Promise.race([gone, new Promise((resolve) => setTimeout(resolve, WAIT_MS))])
      if (ctx.child.exitCode === null) ctx.child.kill('SIGKILL')
    }
  } finally {
    ctx.ca.remove()
  }
})

tlsEcho('https :: GET /hello and POST /echo over TLS', async (ctx) => {
  const hello = await httpsRequest(ctx.port, '/hello', ctx.ca.ca)
  assert.equal([hello.status, JSON.parse(hello.body)], [200, { hello: 'world' }])
  const posted = await httpsRequest(ctx.port, '/echo', ctx.ca.ca, { method: 'POST', body: 'sealed' })
  assert.equal([posted.status, posted.body], [200, 'sealed'])
})

tlsEcho('wss :: messages echoed, and /bcast shared, over TLS', async (ctx) => {
  const open = (path: string): Promise<WebSocket> =>
    new Promise((resolve, reject) => {
      const ws = new WebSocket(`wss://127.0.0.1:${ctx.port}${path}`, { ca: ctx.ca.ca })
      ws.once('open', () => resolve(ws))
      ws.once('error', reject)
    })
  const next = (ws: WebSocket): Promise<string> => new Promise((resolve) => ws.once('message', (data) => resolve(String(data))))
  const [solo, a, b] = [await open('/'), await open('/bcast'), await open('/bcast')]
  try {
    const back = next(solo)
    solo.send('héllo')
    assert.is(await back, 'héllo')
    const atA = next(a)
    const atB = next(b)
    a.send('to both')
    assert.equal([await atA, await atB], ['to both', 'to both'])
  } finally {
    for (const ws of [solo, a, b]) ws.close()
  }
})

tlsEcho('SIGHUP :: the certificate files are read again (Node, Deno) or a warning says why not (Bun)', async (ctx) => {
  assert.is((await secureConnect(ctx.port, ctx.ca.ca)).servedName, 'echo-1')
  copyFileSync(ctx.second.keyPath, ctx.keyPath)
  copyFileSync(ctx.second.certPath, ctx.certPath)
  ctx.child.kill('SIGHUP')
  if (runtime === 'bun') {
    await waitFor(ctx, /SIGHUP: certificate not reloaded: setSecureContext: not available on Bun/)
    assert.is((await secureConnect(ctx.port, ctx.ca.ca)).servedName, 'echo-1')
    return
  }
  await waitFor(ctx, /SIGHUP: new connections get the certificate in/)
  const after = await secureConnect(ctx.port, ctx.ca.ca)
  assert.is(after.servedName, 'echo-2')
  after.socket.destroy()
})

tlsEcho('TLS_KEY without TLS_CERT :: refuses to start, saying which is missing', async (ctx) => {
  const { child, output } = start({ TLS_KEY: ctx.keyPath })
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
  assert.ok(code !== 0, `exit code ${String(code)}`)
  assert.match(output(), /TLS needs both TLS_KEY and TLS_CERT \(files in PEM\); TLS_CERT is not set/)
})

tlsEcho.run()

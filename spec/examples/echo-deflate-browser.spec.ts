/**
 * `DEFLATE=1 npm run example:echo` with headless Chromium (Debian package `chromium`, driven
 * by playwright-core) as the client. Chromium always offers permessage-deflate
 * (`permessage-deflate; client_max_window_bits`): the page sees the extension agreed
 * (`WebSocket.extensions`), and large compressible messages, text and binary, come back
 * whole through the server's inflater and compressor. Without `/usr/bin/chromium` the test
 * is skipped (and says why), unless `CI` is set: there it fails, since CI installs Chromium.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'
import { type Browser, chromium } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { scriptCommand } from '../support/runtimes.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync']
const WAIT_MS = 30_000
const inCi = (process.env.CI ?? '') !== ''

interface Ctx {
  child: ChildProcess | undefined
  port: string
  browser: Browser | undefined
}

const browserSuite = suite<Ctx>('examples/echo.ts with DEFLATE=1 in Chromium', { child: undefined, port: '', browser: undefined })

const withDeadline = async <A>(what: string, run: () => Promise<A>): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${WAIT_MS} ms`)), WAIT_MS)
  })
  try {
    return await Promise.race([run(), deadline])
  } finally {
    clearTimeout(timer)
  }
}

browserSuite.before(async (ctx) => {
  const target = scriptCommand('node', 'examples/echo.ts')
  const child = spawn(target.command, [...target.args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0', DEFLATE: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  ctx.child = child
  ctx.port = await withDeadline('echo server start', () => new Promise<string>((resolve) => {
    let seen = ''
    const look = (chunk: Buffer): void => {
      seen += chunk.toString('utf8')
      const port = /listening on 127\.0\.0\.1:(\d+)/.exec(seen)?.[1]
      if (port !== undefined) resolve(port)
    }
    child.stdout.on('data', look)
    child.stderr.on('data', look)
  }))
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: WAIT_MS })
})

browserSuite.after(async (ctx) => {
  await ctx.browser?.close().catch(() => undefined)
  const child = ctx.child
  if (child !== undefined && child.exitCode === null) {
    const gone = new Promise((resolve) => child.once('exit', resolve))
    child.kill('SIGTERM')
    await withDeadline('echo server exit', () => gone).finally(() => {
      if (child.exitCode === null) child.kill('SIGKILL')
    })
  }
})

// What the page reports: the agreed extensions, and for each message whether it came back
// equal (text compared as strings, binary byte by byte), with its size.
interface PageReport {
  readonly extensions: string
  readonly results: ReadonlyArray<{ readonly size: number; readonly same: boolean }>
  readonly closeCode: number
}

// Runs in the page, given as text: the test runner's transform would add helpers to a
// function passed as such, which the page does not have.
const PAGE_SCRIPT = `async (url) => {
  const rows = []
  for (let i = 0, length = 0; length < 1 << 20; i++) {
    const row = JSON.stringify({ id: i, user: 'user-' + i, online: i % 2 === 0, room: 'lobby' })
    rows.push(row)
    length += row.length + 1
  }
  const json = '{"event":"roster","data":[' + rows.join(',') + ']}'
  const binary = new Uint8Array(256 * 1024).map((_, i) => (i * 7) % 13)
  const ws = new WebSocket(url)
  ws.binaryType = 'arraybuffer'
  await new Promise((resolve, reject) => {
    ws.onopen = resolve
    ws.onerror = reject
  })
  const next = () => new Promise((resolve) => (ws.onmessage = (event) => resolve(event.data)))
  const results = []
  for (const message of [json, 'small', json.slice(0, 5000)]) {
    const back = next()
    ws.send(message)
    results.push({ size: message.length, same: (await back) === message })
  }
  const back = next()
  ws.send(binary)
  const got = new Uint8Array(await back)
  results.push({ size: binary.length, same: got.length === binary.length && got.every((b, i) => b === binary[i]) })
  const closed = new Promise((resolve) => (ws.onclose = (event) => resolve(event.code)))
  ws.close(1000)
  return { extensions: ws.extensions, results, closeCode: await closed }
}`

browserSuite('Chromium :: permessage-deflate agreed; 1 MiB of JSON text and 256 KiB of binary echo back whole', (ctx) =>
  withDeadline('the browser test', async () => {
    const page = await (ctx.browser as Browser).newPage()
    const errors: string[] = []
    page.on('pageerror', (error) => errors.push(error.message))
    await page.goto(`http://127.0.0.1:${ctx.port}/hello`)
    const report = (await page.evaluate(`(${PAGE_SCRIPT})(${JSON.stringify(`ws://127.0.0.1:${ctx.port}/`)})`)) as PageReport
    assert.is(report.extensions, 'permessage-deflate; server_no_context_takeover')
    assert.equal(report.results.map((r) => r.same), [true, true, true, true])
    assert.ok((report.results[0]?.size ?? 0) >= 1 << 20)
    assert.is(report.closeCode, 1000)
    assert.equal(errors, [])
    await page.close()
  }),
)

if (!existsSync(CHROMIUM) && !inCi) {
  console.log(`echo-deflate-browser.spec: skipped: ${CHROMIUM} not found (install the Debian package "chromium"; with CI set this fails)`)
  const skipped = suite('examples/echo.ts with DEFLATE=1 in Chromium')
  skipped.skip('Chromium :: every browser test', () => undefined)
  skipped.run()
} else if (!existsSync(CHROMIUM)) {
  const failing = suite('examples/echo.ts with DEFLATE=1 in Chromium')
  failing('Chromium :: Chromium is installed', () => {
    assert.unreachable(`${CHROMIUM} not found, and CI is set: .ci/run must install the Debian package "chromium"`)
  })
  failing.run()
} else {
  browserSuite.run()
}

/**
 * `npm start` (examples/chat/server.ts) as a process: it listens on HOST/PORT, serves the
 * page and the WebSocket, and on SIGTERM closes WebSocket clients with 1001, logs the start
 * and the end of the drain with counts, and exits 0.
 */
import { spawn } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { exitCodeOf, WAIT_MS, waitForOutput } from '../../support/process-output.js'
import { scriptCommand, targetRuntime } from '../../support/runtimes.js'
import WebSocket from 'ws'

// The server runs in the runtime TWINPORT_TARGET names; the clients here are Node's.
const runtime = targetRuntime()
const target = scriptCommand(runtime, 'examples/chat/server.ts')
test(`npm start on ${runtime} :: serves the chat on HOST/PORT with CHAT_ORIGINS, and shuts down gracefully on SIGTERM, logging the drain`, async () => {
  const child = spawn(target.command, [...target.args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0', DEBUG: '1', CHAT_ORIGINS: ' https://partner.example, ,https://b.example' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const [, port] = await waitForOutput(child, /chat demo: open http:\/\/127\.0\.0\.1:(\d+)\//)
    const base = `http://127.0.0.1:${port}`
    const page = await fetch(`${base}/`, { signal: AbortSignal.timeout(WAIT_MS) })
    assert.is(page.status, 200)
    assert.match(await page.text(), '<title>twinport chat</title>')
    // CHAT_ORIGINS is read: a listed origin gets a CORS grant.
    const rooms = await fetch(`${base}/api/rooms`, { headers: { Origin: 'https://partner.example' }, signal: AbortSignal.timeout(WAIT_MS) })
    assert.is(rooms.headers.get('access-control-allow-origin'), 'https://partner.example')

    const ws = new WebSocket(`ws://127.0.0.1:${port}/`)
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    const closeCode = new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no close within ${WAIT_MS} ms`)), WAIT_MS)
      ws.once('close', (code) => {
        clearTimeout(timer)
        resolve(code)
      })
    })
    const drainStart = waitForOutput(child, /chat demo: SIGTERM: draining (\d+) WebSocket and (\d+) HTTP connections/)
    const drainEnd = waitForOutput(child, /chat demo: drained: (\d+) connections closed in \d+ ms/)
    child.kill('SIGTERM')
    assert.is(await closeCode, 1001)
    const [, websockets] = await drainStart
    assert.is(websockets, '1')
    const [, closed] = await drainEnd
    assert.ok(Number(closed) >= 1, `closed ${closed}`)
    assert.is(await exitCodeOf(child), 0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
  }
})

// A process manager stops `npm start` by signalling npm's pid: npm passes the signal to its
// script's shell, which must be the server itself (`exec`), or the server outlives npm.
if (runtime === 'node') {
  test('npm start :: a SIGTERM to npm reaches the server, which drains and exits with npm', async () => {
    const npm = spawn('npm', ['start', '--silent'], {
      env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    try {
      await waitForOutput(npm, /chat demo: open http:\/\/127\.0\.0\.1:(\d+)\//, 60_000)
      const drained = waitForOutput(npm, /chat demo: drained: \d+ connections closed/)
      npm.kill('SIGTERM')
      await drained
      await exitCodeOf(npm)
      // Nothing of the group is left (the shell, tsx and the server all gone).
      await new Promise((resolve) => setTimeout(resolve, 200))
      assert.throws(() => process.kill(-(npm.pid as number), 0), 'a process of npm start is still running')
    } finally {
      try {
        process.kill(-(npm.pid as number), 'SIGKILL')
      } catch {
        // already gone
      }
    }
  })
}

test.run()

/**
 * `npm start` (examples/chat/server.ts) with `TLS_KEY` and `TLS_CERT`, as a process in the
 * runtime TWINPORT_TARGET names: it says to open an `https://` address, serves the page
 * there, accepts the page's own origin on `wss://`, and still shuts down gracefully. The
 * name ends in `server.spec.ts` so npm test runs it against every runtime's server.
 */
import { spawn } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { waitForOutput } from '../../support/process-output.js'
import { scriptCommand, targetRuntime } from '../../support/runtimes.js'
import { makeTestCa } from '../../support/test-certificates.js'
import { httpsRequest } from '../../support/tls-clients.js'

const runtime = targetRuntime()
const target = scriptCommand(runtime, 'examples/chat/server.ts')
test(`npm start on ${runtime} with TLS_KEY/TLS_CERT :: the page over https, the chat over wss, a graceful stop`, async () => {
  const ca = makeTestCa()
  const issued = ca.issue('chat.test')
  const child = spawn(target.command, [...target.args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0', TLS_KEY: issued.keyPath, TLS_CERT: issued.certPath },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  try {
    const [, port] = await waitForOutput(child, /chat demo: open https:\/\/127\.0\.0\.1:(\d+)\//)
    const page = await httpsRequest(Number(port), '/', ca.ca)
    assert.is(page.status, 200)
    assert.match(page.body, '<title>twinport chat</title>')
    // What the page does: wss:// on its own origin.
    const ws = new WebSocket(`wss://127.0.0.1:${port}/`, { ca: ca.ca, headers: { Origin: `https://127.0.0.1:${port}` } })
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    const closeCode = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)))
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)))
    child.kill('SIGTERM')
    assert.is(await closeCode, 1001)
    assert.is(await exited, 0)
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL')
    ca.remove()
  }
})

test.run()

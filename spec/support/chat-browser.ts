/**
 * What the browser end-to-end specs of the chat demo share (spec/examples/chat-browser*.spec.ts):
 * Chromium's path and flags, bounded waits, the page's actions (`setName`, `say`) and checks
 * (`sees`, `roomHolds`), and `npm start` as a process of the runtime TWINPORT_TARGET names, to
 * kill and start again. Specs only.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import type { Page } from 'playwright-core'
import * as assert from 'uvu/assert'
import { scriptCommand, targetRuntime } from './runtimes.js'

export const CHROMIUM = '/usr/bin/chromium'
/** Headless Chromium (the Debian package), with nothing running in the background. */
export const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
// Every wait is bounded; each test is bounded too, and the browser is always closed.
export const STEP_MS = 10_000
export const TEST_MS = 60_000

/** Under CI a missing Chromium fails the browser specs instead of skipping them. */
export const inCi = (process.env.CI ?? '') !== ''

/** `run`, rejected with `what` when it takes longer than `ms`. */
export const withDeadline = async <A>(ms: number, what: string, run: () => Promise<A>): Promise<A> => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: not done within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([run(), deadline])
  } finally {
    clearTimeout(timer)
  }
}

/** Submits `name` in the page's name form. */
export const setName = async (page: Page, name: string): Promise<void> => {
  await page.fill('#name', name)
  await page.click('#name-form button')
}


/** Sends `text` from the page's message form. */
export const say = async (page: Page, text: string): Promise<void> => {
  await page.fill('#message', text)
  await page.click('#send-form button')
}

// Resolves when the page shows a message from `name` whose text is exactly `text`.
export const sees = async (page: Page, name: string, text: string): Promise<void> => {
  const line = page.locator('#logs .msg').filter({ has: page.locator('.msg-name', { hasText: name }) }).filter({
    has: page.locator('.msg-text', { hasText: text }),
  })
  await line.first().waitFor()
  assert.is(await line.first().locator('.msg-text').textContent(), text)
}

/** The notices (joined, left, renamed) the page shows now. */
export const notices = async (page: Page): Promise<string[]> => page.locator('#logs .notice').allTextContents()

// Resolves when the server at `url` counts `count` members in `room` (polled; bounded).
export const roomHolds = async (url: string, room: string, count: number, why: () => Promise<string>): Promise<void> => {
  const members = async (): Promise<number> => {
    const body = (await (await fetch(`${url}api/rooms`, { signal: AbortSignal.timeout(STEP_MS) })).json()) as { rooms: { room: string; members: number }[] }
    return body.rooms.find((r) => r.room === room)?.members ?? 0
  }
  for (let tries = 0; (await members()) !== count; tries++) {
    if (tries >= 300) assert.unreachable(`#${room} does not hold ${count} within 30 s: ${await why()}`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

// `npm start` as a process on `port` (0: any); resolves with the process and its port.
export interface Demo {
  readonly child: ChildProcess
  readonly port: number
}

export const startDemo = (port: number): Promise<Demo> => {
  const { command, args } = scriptCommand(targetRuntime(), 'examples/chat/server.ts')
  const child = spawn(command, [...args], { env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'] })
  return withDeadline(
    30_000,
    'npm start',
    () =>
      new Promise<Demo>((resolve, reject) => {
        let out = ''
        const seen = (chunk: Buffer): void => {
          out += chunk.toString('utf8')
          const listening = /open http:\/\/127\.0\.0\.1:(\d+)\//.exec(out)
          if (listening !== null) resolve({ child, port: Number(listening[1]) })
        }
        child.stdout?.on('data', seen)
        child.stderr?.on('data', seen)
        child.once('exit', (code) => reject(new Error(`npm start exited (${code}): ${out}`)))
      }),
  ).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
}

// SIGKILL: no close frames, no drain; resolves when the process is gone.
export const kill = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => {
        child.once('exit', () => resolve())
        child.kill('SIGKILL')
      })

/**
 * What Chromium logs as console errors while the server is down, expected during an outage:
 * each refused WebSocket handshake, and the page's fallback (`sseFallback`) trying its event
 * stream next and being refused too.
 */
export const REFUSED = /WebSocket connection to '[^']*' failed|Failed to load resource: net::ERR_CONNECTION_REFUSED/

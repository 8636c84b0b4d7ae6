/**
 * The chat demo in headless Chromium where WebSocket cannot be had (issue 23, "Proven with
 * real clients"): a proxy in front of `npm start` answers 403 to every `Upgrade` and passes
 * everything else, so the page's client (`connect('/', { fallback: sseFallback(...) })`) goes on
 * over Server-Sent Events and `POST /events` by itself. Two pages chat; a network cut while a
 * message is posted to their room is survived by the stream coming back with `Last-Event-ID`
 * (the session resumed, the message replayed once); the server is killed and started again and
 * both pages come back to their room, a line typed during the outage delivered once. And a
 * page's own `EventSource` on `GET /events` of examples/echo.ts gets what a `/bcast`
 * WebSocket client sends. Screenshots of each step go to `artifacts/e2e/chat-browser-fallback/
 * <runtime>/` (gitignored; CI keeps them). The servers run in the runtime TWINPORT_TARGET names;
 * npm test runs this file against Node, Bun and Deno. Without `/usr/bin/chromium` the tests
 * are skipped unless `CI` is set (then they fail).
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { ARGS, CHROMIUM, inCi, kill, roomHolds, say, sees, setName, startDemo, STEP_MS, TEST_MS, withDeadline } from '../support/chat-browser.js'
import { serve } from '../support/fixture-server.js'
import { targetRuntime } from '../support/runtimes.js'
import { openClient } from '../support/server.js'
import { startUpgradeProxy, type UpgradeProxy } from '../support/upgrade-proxy.js'

const ARTIFACTS = join('artifacts', 'e2e', 'chat-browser-fallback', targetRuntime())

interface Ctx {
  browser: Browser
  contexts: BrowserContext[]
  pageErrors: string[]
}

// What Chromium logs on its console while the network or a server is away (the refused
// upgrades of every attempt, the streams and posts cut or refused, some only as the page goes):
// this suite takes them away on purpose, so these are expected; nothing else is.
const OUTAGE = /WebSocket connection to '[^']*' failed|Failed to load resource|net::ERR_/

const shoot = async (page: Page, name: string): Promise<void> => {
  mkdirSync(ARTIFACTS, { recursive: true })
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`) })
}

// A page of `url` in a context of its own, its console errors collected.
const open = async (ctx: Ctx, url: string): Promise<Page> => {
  const context = await ctx.browser.newContext({ viewport: { width: 900, height: 600 } })
  ctx.contexts.push(context)
  // No icon to fetch (the echo example has none: a 404 on the console).
  await context.route('**/favicon.ico', (route) => route.fulfill({ status: 204 }))
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  page.on('pageerror', (error) => ctx.pageErrors.push(error.message))
  page.on('console', (msg) => {
    if (msg.type() === 'error') ctx.pageErrors.push(msg.text())
  })
  await page.goto(url)
  return page
}

// The chat page at `url`, named `name`, in `room`.
const enter = async (ctx: Ctx, url: string, name: string, room: string): Promise<Page> => {
  const page = await open(ctx, url)
  await page.locator('#status[data-state="open"]').waitFor()
  await setName(page, name)
  await page.locator('#whoami', { hasText: `You are ${name}.` }).waitFor()
  await page.fill('#room', room)
  await page.click('#join-form button')
  await page.locator('#room-title', { hasText: `#${room}` }).waitFor()
  return page
}

const lines = (page: Page, text: string): Promise<number> => page.locator('#logs .msg-text', { hasText: text }).count()

// The event-stream requests the proxy passed from `from` on, and the Last-Event-ID each carried ('' for none).
const streams = (proxy: UpgradeProxy, from = 0): string[] =>
  proxy.passed
    .slice(from)
    .filter((head) => head.startsWith('GET /events'))
    .map((head) => /\r\nlast-event-id: *([^\r]*)/i.exec(head)?.[1] ?? '')

const post = (port: number, room: string, name: string, text: string): Promise<Response> =>
  fetch(`http://127.0.0.1:${port}/api/rooms/${room}/messages`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, text }),
    signal: AbortSignal.timeout(STEP_MS),
  })

const browserSuite = suite<Ctx>(`chat demo in Chromium without WebSocket, served by ${targetRuntime()}`, { browser: undefined as unknown as Browser, contexts: [], pageErrors: [] })

browserSuite.before(async (ctx) => {
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 })
})

browserSuite.after.each(async (ctx) => {
  await Promise.all(ctx.contexts.splice(0).map((c) => c.close().catch(() => undefined)))
  const errors = ctx.pageErrors.splice(0).filter((e) => !OUTAGE.test(e))
  assert.equal(errors, [], 'the pages logged errors')
})

browserSuite.after(async (ctx) => {
  await ctx.browser?.close().catch(() => undefined)
})

const check = (name: string, run: (ctx: Ctx) => Promise<void>): void => browserSuite(name, (ctx) => withDeadline(2 * TEST_MS, name, () => run(ctx)))

check('fallback :: upgrades refused with 403: two pages chat over SSE and POST, survive a cut with Last-Event-ID and a server restart, nothing lost or doubled', async (ctx) => {
  let demo = await startDemo(0)
  const proxy = await startUpgradeProxy(demo.port, 'refuse')
  try {
    const url = `http://127.0.0.1:${proxy.port}/`
    const ada = await enter(ctx, url, 'ada', 'nows')
    const bob = await enter(ctx, url, 'bob', 'nows')
    await ada.locator('#members', { hasText: '2 here: ada, bob' }).waitFor()
    await say(ada, 'hello over the event stream')
    await sees(bob, 'ada', 'hello over the event stream')
    await say(bob, 'and back over a post')
    await sees(ada, 'bob', 'and back over a post')
    // Every page tried WebSocket and was refused; their streams opened without a cursor.
    assert.ok(proxy.blocked >= 2, `upgrades refused: ${proxy.blocked}`)
    assert.equal(streams(proxy), ['', ''])
    await shoot(ada, '1-ada-chatting-without-websocket')
    await shoot(bob, '1-bob-chatting-without-websocket')

    // The network breaks (streams and posts cut, the proxy leads nowhere) while a message is
    // posted to the room: the pages come back on their streams with Last-Event-ID, the server
    // resumes their sessions and replays it.
    const beforeCut = proxy.passed.length
    proxy.pointAt(1)
    proxy.cut()
    for (const page of [ada, bob]) await page.locator('#status[data-state="closed"]').waitFor()
    assert.is((await post(demo.port, 'nows', 'rest-bot', 'posted while the pages were cut off')).status, 201)
    proxy.pointAt(demo.port)
    for (const page of [ada, bob]) {
      await page.locator('#status[data-state="open"]').waitFor()
      await sees(page, 'rest-bot', 'posted while the pages were cut off')
    }
    const resumed = streams(proxy, beforeCut).filter((id) => id !== '')
    assert.ok(resumed.length >= 2 && resumed.every((id) => /^[^:]+:\d+$/.test(id)), `Last-Event-ID after the cut: ${JSON.stringify(streams(proxy, beforeCut))}`)
    await say(bob, 'still here after the cut')
    await sees(ada, 'bob', 'still here after the cut')
    await shoot(ada, '2-ada-after-the-cut')

    // The server is killed and started again on its port: a line typed meanwhile waits in
    // ada's queue; both pages come back to the room on the new server (which knows none of
    // their cursors: a fresh session, their names and rooms told again) and see it once.
    const beforeRestart = proxy.passed.length
    await kill(demo.child)
    for (const page of [ada, bob]) await page.locator('#status[data-state="closed"]').waitFor()
    const during = 'typed while the server was down'
    await say(ada, during)
    await shoot(ada, '3-ada-during-the-outage')
    demo = await startDemo(demo.port)
    await roomHolds(url, 'nows', 2, async () => `ada: ${await ada.locator('#status').textContent()}, bob: ${await bob.locator('#status').textContent()}`)
    for (const page of [ada, bob]) {
      await page.locator('#status[data-state="open"]').waitFor()
      await page.locator('#members', { hasText: /^2 here: (ada, bob|bob, ada)$/ }).waitFor()
      await sees(page, 'ada', during)
    }
    assert.ok(streams(proxy, beforeRestart).some((id) => id !== ''), 'the streams came back with their Last-Event-ID')
    await say(bob, 'after the restart')
    await sees(ada, 'bob', 'after the restart')
    for (const page of [ada, bob]) {
      for (const text of ['hello over the event stream', 'posted while the pages were cut off', during, 'after the restart']) {
        assert.is(await lines(page, text), 1, `${text}: once on each page`)
      }
      assert.ok(await page.locator('#error').isHidden())
    }
    await shoot(ada, '4-ada-after-the-restart')
    await shoot(bob, '4-bob-after-the-restart')
    // All the way over HTTP: what the pages sent went as posts of the event-stream session.
    const posts = proxy.passed.filter((head) => head.startsWith('POST /events'))
    assert.ok(posts.length >= 8 && posts.every((head) => /\r\nx-twinport-session: *\S/i.test(head)), `${posts.length} posts`)
    for (const page of [ada, bob]) await page.close()
  } finally {
    await kill(demo.child)
    await proxy.close()
  }
})

check('EventSource :: a page\'s own EventSource on GET /events of examples/echo.ts gets what a /bcast WebSocket client sends', async (ctx) => {
  const { server, port, url } = await serve('sse', 'echo')
  try {
    const page = await open(ctx, `${url}/static/index.html`)
    await page.evaluate(
      () =>
        new Promise<void>((resolve, reject) => {
          const w = window as unknown as { got: string[] }
          w.got = []
          const source = new EventSource('/events')
          source.onopen = () => resolve()
          source.onerror = () => reject(new Error('EventSource failed'))
          source.onmessage = (event) => void w.got.push(String(event.data))
        }),
    )
    const ws = await openClient(port, '/bcast')
    try {
      ws.ws.send('hello, EventSource')
      ws.ws.send('line one\nline two')
      await page.waitForFunction(() => (window as unknown as { got: string[] }).got.length >= 2)
      assert.equal(await page.evaluate(() => (window as unknown as { got: string[] }).got), ['hello, EventSource', 'line one\nline two'])
    } finally {
      ws.ws.close()
    }
    await page.evaluate((got) => void (document.body.textContent = `EventSource got: ${got.join(' | ')}`), await page.evaluate(() => (window as unknown as { got: string[] }).got))
    await shoot(page, '5-eventsource-on-echo')
  } finally {
    await server.close()
  }
})

if (!existsSync(CHROMIUM) && !inCi) {
  console.log(`chat-browser-fallback.spec: skipped: ${CHROMIUM} not found (install the Debian package "chromium"; with CI set this fails)`)
  const skipped = suite('chat demo in Chromium without WebSocket')
  skipped.skip('fallback :: every browser test', () => undefined)
  skipped.run()
} else if (!existsSync(CHROMIUM)) {
  const failing = suite('chat demo in Chromium without WebSocket')
  failing('fallback :: Chromium is installed', () => {
    assert.unreachable(`${CHROMIUM} not found, and CI is set: .ci/run must install the Debian package "chromium"`)
  })
  failing.run()
} else {
  browserSuite.run()
}

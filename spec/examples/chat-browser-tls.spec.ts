/**
 * The chat demo over TLS in headless Chromium (Debian package `chromium`, driven by
 * playwright-core): the page loads from `https://`, opens its WebSocket on `wss://` (the
 * page picks the scheme from its own), and two pages chat. The certificate is made at test
 * time by `openssl`; Chromium is told to ignore that it does not know the authority
 * (`--ignore-certificate-errors`), which is the only thing this test relaxes. Without
 * `/usr/bin/chromium` the test is skipped (and says why), unless `CI` is set: there it fails.
 */
import { existsSync } from 'node:fs'
import { type Browser, chromium, type Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { startChat } from '../../examples/chat/start-chat.js'
import { type ServerHandle, silentLogger } from '../../lib/index.js'
import { makeTestCa, type TestCa } from '../support/test-certificates.js'

const CHROMIUM = '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--ignore-certificate-errors']
const STEP_MS = 10_000
const TEST_MS = 60_000
const inCi = (process.env.CI ?? '') !== ''

interface Ctx {
  ca: TestCa
  chat: ServerHandle
  url: string
  browser: Browser
}

const tlsBrowser = suite<Ctx>('chat demo over TLS in Chromium', {} as Ctx)

tlsBrowser.before(async (ctx) => {
  ctx.ca = makeTestCa()
  const { key, cert } = ctx.ca.issue('localhost')
  ctx.chat = await startChat({ host: '127.0.0.1', port: 0, logger: silentLogger, tls: { key, cert } })
  ctx.url = `https://127.0.0.1:${ctx.chat.address.port}/`
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 })
})

tlsBrowser.after(async (ctx) => {
  await ctx.browser?.close().catch(() => undefined)
  await ctx.chat?.close()
  ctx.ca?.remove()
})

const enter = async (ctx: Ctx, name: string, errors: string[]): Promise<Page> => {
  const page = await ctx.browser.newPage()
  page.setDefaultTimeout(STEP_MS)
  page.on('pageerror', (error) => errors.push(error.message))
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text())
  })
  const response = await page.goto(ctx.url)
  assert.is(response?.status(), 200)
  await page.locator('#status[data-state="open"]').waitFor()
  await page.fill('#name', name)
  await page.click('#name-form button')
  await page.locator('#whoami', { hasText: `You are ${name}.` }).waitFor()
  await page.fill('#room', 'secure')
  await page.click('#join-form button')
  await page.locator('#room-title', { hasText: '#secure' }).waitFor()
  return page
}

tlsBrowser('chat over TLS :: the page from https://, its WebSocket on wss://, two pages chat', (ctx) => {
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`not done within ${TEST_MS} ms`)), TEST_MS)
  })
  const run = async (): Promise<void> => {
    const errors: string[] = []
    const ada = await enter(ctx, 'ada', errors)
    const bob = await enter(ctx, 'bob', errors)
    assert.is(await ada.evaluate(() => location.protocol), 'https:')
    assert.is(ctx.chat.clients().filter((c) => c.type === 'ws').length, 2, 'both pages hold a WebSocket (wss: the page is https)')
    await ada.fill('#message', 'sealed in TLS')
    await ada.click('#send-form button')
    const line = bob.locator('#logs .msg').filter({ has: bob.locator('.msg-text', { hasText: 'sealed in TLS' }) })
    await line.first().waitFor()
    assert.is(await line.first().locator('.msg-name').textContent(), 'ada')
    assert.equal(errors, [], 'the pages logged errors')
  }
  return Promise.race([run(), deadline]).finally(() => clearTimeout(timer))
})

if (!existsSync(CHROMIUM) && !inCi) {
  console.log(`chat-browser-tls.spec: skipped: ${CHROMIUM} not found (install the Debian package "chromium"; with CI set this fails)`)
  const skipped = suite('chat demo over TLS in Chromium')
  skipped.skip('chat over TLS :: every browser test', () => undefined)
  skipped.run()
} else if (!existsSync(CHROMIUM)) {
  const failing = suite('chat demo over TLS in Chromium')
  failing('chat over TLS :: Chromium is installed', () => {
    assert.unreachable(`${CHROMIUM} not found, and CI is set: .ci/run must install the Debian package "chromium"`)
  })
  failing.run()
} else {
  tlsBrowser.run()
}

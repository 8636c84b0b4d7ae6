/**
 * The admin page (`adminRoutes`) end to end in headless Chromium (the Debian package, driven by
 * playwright-core), served by Node: refused without the authorize hook's approval (the page, and
 * its WebSocket at the upgrade), a room and its count shown and changed live as clients join, the last errors
 * listed, two nodes over a real redis-server listed by one page, and the page on a 390-px phone
 * and a 1280-px screen (screenshots in `artifacts/e2e/admin-page/`, looked at by a person).
 * Without `/usr/bin/chromium` the tests are skipped (and say why), unless `CI` is set.
 */
import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { type Browser, chromium, type Page } from 'playwright-core'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { adminRoutes, type AdminRoutesOptions, parseQuery, socketOn, unauthorized } from '../../lib/index.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { redisAdapter } from '../../lib/redis/index.js'
import { ARGS, CHROMIUM, inCi, STEP_MS, TEST_MS, withDeadline } from '../support/chat-browser.js'
import { type RedisServer, startRedis } from '../support/redis.js'
import { eventually, startServer } from '../support/server.js'

const ARTIFACTS = join('artifacts', 'e2e', 'admin-page')
const TOKEN = 'let-me-in'

// Admits `?token=let-me-in`; a request without a token is told to authenticate (401).
const AUTH: AdminRoutesOptions = {
  path: '/admin',
  authorize: (req) => {
    const token = parseQuery(req.rawQuery)['token']
    return token === undefined ? unauthorized('a token, please') : token === TOKEN
  },
}
const APP = [socketOn('join', (room, ctx) => (typeof room === 'string' ? (ctx.joinRoom(room), true) : false))]

interface Ctx {
  browser: Browser
  pageErrors: string[]
  closers: (() => Promise<unknown> | unknown)[]
}

const admin = suite<Ctx>('admin page in Chromium', { browser: undefined as unknown as Browser, pageErrors: [], closers: [] })

admin.before(async (ctx) => {
  mkdirSync(ARTIFACTS, { recursive: true })
  ctx.browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, timeout: 30_000 })
})
admin.after.each(async (ctx) => {
  for (const close of ctx.closers.splice(0).reverse()) await Promise.resolve(close()).catch(() => undefined)
  assert.equal(ctx.pageErrors.splice(0), [], 'the page logged errors')
})
admin.after(async (ctx) => {
  await ctx.browser?.close().catch(() => undefined)
})

const check = (name: string, run: (ctx: Ctx) => Promise<void>): void => admin(name, (ctx) => withDeadline(TEST_MS, name, () => run(ctx)))

const serve = async (ctx: Ctx, options: AdminRoutesOptions, extra: Parameters<typeof startServer>[0] = {}): Promise<{ server: ServerHandle; url: string }> => {
  const started = await startServer({ routes: [adminRoutes(options), APP], ...extra })
  ctx.closers.push(() => started.server.close())
  return started
}

// A WebSocket client of `url` (http://…) that joins `room`; closed after the test.
const member = async (ctx: Ctx, url: string, room: string): Promise<WebSocket> => {
  const ws = new WebSocket(`${url.replace('http', 'ws')}/`)
  ctx.closers.push(() => ws.close())
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })
  ws.send(JSON.stringify({ event: 'join', data: room, id: 1 }))
  await new Promise<void>((resolve) => ws.once('message', () => resolve()))
  return ws
}

const openPage = async (ctx: Ctx, url: string, viewport = { width: 1280, height: 900 }): Promise<Page> => {
  const context = await ctx.browser.newContext({ viewport })
  ctx.closers.push(() => context.close())
  const page = await context.newPage()
  page.setDefaultTimeout(STEP_MS)
  page.on('pageerror', (error) => ctx.pageErrors.push(error.message))
  page.on('console', (msg) => {
    if (msg.type() === 'error') ctx.pageErrors.push(msg.text())
  })
  const answer = await page.goto(url)
  assert.is(answer?.status(), 200)
  await page.locator('#status[data-state="open"]').waitFor()
  return page
}

const members = (page: Page, room: string) => page.locator(`#rooms tr[data-room="${room}"] .members`)

check('adminRoutes :: without a hook, and without its approval, the page and its WebSocket are refused', async (ctx) => {
  const bare = await serve(ctx, { path: '/admin' })
  assert.is((await fetch(`${bare.url}/admin`, { signal: AbortSignal.timeout(STEP_MS) })).status, 403)
  const { url } = await serve(ctx, AUTH)
  assert.is((await fetch(`${url}/admin`, { signal: AbortSignal.timeout(STEP_MS) })).status, 401)
  const wrong = await fetch(`${url}/admin?token=nope`, { signal: AbortSignal.timeout(STEP_MS) })
  assert.is(wrong.status, 403)
  assert.not.ok((await wrong.text()).includes('<table'), 'a refusal shows nothing of the page')
  // The page's files hold no data: they are served to anyone.
  assert.is((await fetch(`${url}/admin/admin.js`, { signal: AbortSignal.timeout(STEP_MS) })).status, 200)
  // The WebSocket is refused at the upgrade: the refusal's status instead of the 101, or, to a
  // client that asks for refusals as close codes (tp_c=1, as the page's client does), 4000 + the
  // status right after it; a snapshot asked anyway is never answered with data.
  for (const [query, status] of [['', 401], ['?token=nope', 403]] as const) {
    for (const closeCodes of [false, true]) {
      const ws = new WebSocket(`${url.replace('http', 'ws')}/admin/ws${query}${closeCodes ? `${query === '' ? '?' : '&'}tp_c=1` : ''}`)
      ctx.closers.push(() => ws.terminate())
      const got: string[] = []
      ws.on('message', (m: Buffer) => got.push(String(m)))
      ws.on('error', () => undefined)
      ws.once('open', () => ws.send(JSON.stringify({ event: 'tp:admin', id: 1 })))
      const outcome = await new Promise<string>((resolve) => {
        ws.once('close', (c: number) => resolve(`close ${c}`))
        ws.once('unexpected-response', (req, res) => {
          req.destroy()
          resolve(`status ${res.statusCode}`)
        })
      })
      assert.is(outcome, closeCodes ? `close ${4000 + status}` : `status ${status}`)
      assert.not.ok(got.some((m) => m.includes('"nodes"')), got.join(' | '))
    }
  }
  // Another path's WebSocket asking for a snapshot is refused too.
  const other = new WebSocket(`${url.replace('http', 'ws')}/?token=${TOKEN}`)
  ctx.closers.push(() => other.close())
  await new Promise((resolve) => other.once('open', resolve))
  other.send(JSON.stringify({ event: 'tp:admin', id: 7 }))
  const answer = await new Promise<string>((resolve) => other.once('message', (m: Buffer) => resolve(String(m))))
  assert.equal(JSON.parse(answer), { event: 'ack', id: 7, data: { error: 'forbidden' } })
  // And the page in Chromium, with a bad token: refused, nothing shown.
  const context = await ctx.browser.newContext()
  ctx.closers.push(() => context.close())
  const page = await context.newPage()
  assert.is((await page.goto(`${url}/admin?token=nope`))?.status(), 403)
  assert.is(await page.locator('#rooms').count(), 0)
})

check('admin page :: a room and its count change live as clients join; bad input shows in the last errors; 1280 px and 390 px', async (ctx) => {
  const { url } = await serve(ctx, { ...AUTH, refreshMs: 250 })
  const page = await openPage(ctx, `${url}/admin?token=${TOKEN}`)
  await member(ctx, url, 'lobby')
  await members(page, 'lobby').filter({ hasText: /^1$/ }).waitFor()
  await member(ctx, url, 'lobby')
  await member(ctx, url, 'a-rather-long-room-name-for-a-phone-screen')
  await members(page, 'lobby').filter({ hasText: /^2$/ }).waitFor()
  // The page's own connection and the three members are WebSocket clients of this node.
  await page.locator('#total-ws', { hasText: /^4$/ }).waitFor()
  const bad = await member(ctx, url, 'noisy')
  bad.send('{ not json')
  await page.locator('#errors li', { hasText: 'invalid_json' }).first().waitFor()
  await page.locator('#rate-in').filter({ hasNotText: '–' }).waitFor()
  await page.screenshot({ path: join(ARTIFACTS, 'admin-1280.png'), fullPage: true })

  const phone = await openPage(ctx, `${url}/admin?token=${TOKEN}`, { width: 390, height: 844 })
  await members(phone, 'lobby').filter({ hasText: /^2$/ }).waitFor()
  await phone.locator('#errors li', { hasText: 'invalid_json' }).first().waitFor()
  await phone.screenshot({ path: join(ARTIFACTS, 'admin-390.png'), fullPage: true })
  assert.ok(await phone.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling at 390 px')
  const box = await phone.locator('#rooms').boundingBox()
  assert.ok(box !== null && box.x >= 0 && box.x + box.width <= 390, `the rooms table ${JSON.stringify(box)} fits 390 px`)
})

let redis: RedisServer | undefined
check('admin page :: two nodes over a real redis-server are listed, with the rooms of both', async (ctx) => {
  redis ??= await startRedis()
  const prefix = `admin${Date.now()}`
  const node = async (nodeId: string): Promise<{ server: ServerHandle; url: string }> => {
    const adapter = redisAdapter({ url: redis?.url ?? '', nodeId, prefix, heartbeatIntervalMs: 200 })
    const started = await serve(ctx, { ...AUTH, refreshMs: 250 }, { cluster: adapter })
    await adapter.ready()
    return started
  }
  const a = await node('node-a')
  const b = await node('node-b')
  const page = await openPage(ctx, `${a.url}/admin?token=${TOKEN}`)
  await member(ctx, b.url, 'on-b')
  await member(ctx, a.url, 'shared')
  await member(ctx, b.url, 'shared')
  for (const id of ['node-a', 'node-b']) await page.locator(`#nodes tr[data-node="${id}"]`).waitFor()
  await members(page, 'on-b').filter({ hasText: /^1$/ }).waitFor()
  await members(page, 'shared').filter({ hasText: /^2$/ }).waitFor()
  await eventually(async () => (await page.locator('#total-nodes').textContent()) === '2', STEP_MS, 'two nodes counted')
  await page.screenshot({ path: join(ARTIFACTS, 'admin-two-nodes-1280.png'), fullPage: true })
})

admin.after(async () => {
  await redis?.dispose()
})

if (!existsSync(CHROMIUM) && !inCi) {
  console.log(`admin-page.spec: skipped: ${CHROMIUM} not found (install the Debian package "chromium"; with CI set this fails)`)
  const skipped = suite('admin page in Chromium')
  skipped.skip('admin page :: every browser test', () => undefined)
  skipped.run()
} else admin.run()

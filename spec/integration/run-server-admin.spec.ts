/**
 * The admin page's WebSocket refused at the upgrade (issue 25), through `upgradeGuard`, on a
 * real socket: a raw upgrade gets the hook's 401/403 and never a 101; a `ws` client that asks
 * for refusals as close codes gets 4401/4403 and nothing else; twinport/client reports
 * `refused` with the status; an authorised client connects and gets a snapshot; other paths
 * are not guarded; a guard runs after the server's upgrade middleware. The apps
 * (spec/integration/fixtures/admin.ts) are served by the runtime TWINPORT_TARGET names.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { connect as connectClient } from '../../lib/client/connect.js'
import { nextOf, WebSocketImpl } from '../support/client.js'
import { serve } from '../support/fixture-server.js'
import { delay, eventually, openClient, rawExchange, statusOf } from '../support/server.js'
import { ADMIN_TOKEN } from './fixtures/admin.js'

const upgradeTo = (target: string): string =>
  `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'

// A `ws` client's close and messages; `unexpected-response` settles with the status instead.
const attempt = (url: string): Promise<{ status?: number; close?: { code: number; reason: string }; got: string[] }> =>
  new Promise((resolve) => {
    const ws = new WebSocket(url)
    const got: string[] = []
    ws.on('message', (m: Buffer) => got.push(String(m)))
    ws.on('error', () => undefined)
    ws.once('open', () => ws.send(JSON.stringify({ event: 'tp:admin', id: 1 })))
    ws.once('close', (code: number, reason: Buffer) => resolve({ close: { code, reason: reason.toString('utf8') }, got }))
    ws.once('unexpected-response', (req, res) => {
      req.destroy()
      resolve({ status: res.statusCode ?? 0, got })
    })
  })

const Admin = suite('runServer :: the admin page’s WebSocket refused at the upgrade (upgradeGuard)')

Admin('a raw upgrade without the hook’s approval: HTTP/1.1 401 or 403, no 101, no client, no onConnect', async () => {
  const { server, port } = await serve('admin', 'app')
  try {
    for (const [target, status] of [['/admin/ws', 401], ['/admin/ws?token=nope', 403], ['/admin/ws/?token=nope', 403]] as const) {
      const answer = await rawExchange(port, upgradeTo(target))
      assert.is(statusOf(answer), status, answer)
      assert.not.ok(answer.includes('101 Switching Protocols'), answer)
      assert.not.ok(/\r\nsec-websocket-accept:/i.test(answer), answer)
    }
    await eventually(async () => (await server.clients()).length === 0, 3000, 'no client left')
    assert.equal(await server.probe('connected'), [])
  } finally {
    await server.close()
  }
})

Admin('a ws client without tp_c sees the status; with tp_c=1 a close 4401/4403 and not one message', async () => {
  const { server, url } = await serve('admin', 'app')
  const ws = url.replace('http', 'ws')
  try {
    assert.equal(await attempt(`${ws}/admin/ws`), { status: 401, got: [] })
    assert.equal(await attempt(`${ws}/admin/ws?token=nope`), { status: 403, got: [] })
    const unauthorised = await attempt(`${ws}/admin/ws?tp_c=1`)
    assert.equal(unauthorised, { close: { code: 4401, reason: 'a token, please' }, got: [] })
    const forbidden = await attempt(`${ws}/admin/ws?token=nope&tp_c=1`)
    assert.is(forbidden.close?.code, 4403)
    assert.equal(forbidden.got, [])
    await eventually(async () => (await server.clients()).length === 0, 3000, 'no client left')
    assert.equal(await server.probe('connected'), [])
  } finally {
    await server.close()
  }
})

Admin('twinport/client: "refused" with 4401 / 4403, not retried; with the token it connects and gets a snapshot', async () => {
  const { server, url } = await serve('admin', 'app')
  const clients: { close(): void }[] = []
  try {
    for (const [token, code] of [[undefined, 4401], ['nope', 4403]] as const) {
      const c = connectClient(`${url}/admin/ws`, { WebSocket: WebSocketImpl, auth: (): Record<string, string> => (token === undefined ? {} : { token }), reconnect: { minDelay: 5, maxDelay: 20 }, random: () => 0 })
      clients.push(c)
      const refused = await nextOf<{ code: number; reason: string }>(c, 'refused')
      assert.is(refused.code, code)
      await delay(40)
      assert.is(c.state, 'closed')
    }
    const ok = connectClient(`${url}/admin/ws`, { WebSocket: WebSocketImpl, auth: () => ({ token: ADMIN_TOKEN }) })
    clients.push(ok)
    await nextOf(ok, 'open')
    const snapshot = (await ok.request('tp:admin')) as { readonly nodes?: readonly unknown[] }
    assert.ok(Array.isArray(snapshot.nodes) && snapshot.nodes.length === 1, JSON.stringify(snapshot))
    assert.equal(await server.probe('connected'), ['/admin/ws'])
  } finally {
    for (const c of clients) c.close()
    await server.close()
  }
})

Admin('other paths are not guarded: a client of / connects without a token, and is told nothing of the admin page', async () => {
  const { server, port } = await serve('admin', 'app')
  try {
    const c = await openClient(port, '/')
    try {
      c.emit('ping', undefined, 1)
      assert.equal(await c.nextJson(), { event: 'ack', id: 1, data: 'pong' })
      c.emit('tp:admin', undefined, 2)
      assert.equal(await c.nextJson(), { event: 'ack', id: 2, data: { error: 'forbidden' } })
    } finally {
      c.ws.close()
      await c.closed()
    }
  } finally {
    await server.close()
  }
})

Admin('a guard runs after the upgrade middleware: it reads the identity the middleware found, and adds to it', async () => {
  const { server, port } = await serve('admin', 'ordered')
  try {
    assert.is(statusOf(await rawExchange(port, upgradeTo('/vip?user=bob'))), 403)
    const c = await openClient(port, '/vip?user=ada')
    try {
      c.emit('whoami', undefined, 1)
      assert.equal(await c.nextJson(), { event: 'ack', id: 1, data: { user: 'ada', vip: true } })
    } finally {
      c.ws.close()
      await c.closed()
    }
    assert.equal(await server.probe('connected'), ['/vip ada'])
  } finally {
    await server.close()
  }
})

Admin.run()

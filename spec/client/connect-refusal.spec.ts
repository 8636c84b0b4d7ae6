/**
 * Refusals and kicks as the client sees them (issue 28): a 4xx at the upgrade arrives as close
 * code 4000 + status (`refused`), a server's 4000–4999 close of an open link as `kicked`;
 * neither is retried; `auth` gives each attempt its query, and `reconnect()` starts again.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from '../../lib/core/http/parse-query.js'
import { unauthorized } from '../../lib/core/http/response.js'
import { clientDataOf } from '../../lib/core/route/client-data-of.js'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { admit, upgradeMiddleware } from '../../lib/core/route/upgrade-middleware.js'
import type { ClientOptions } from '../../lib/client/client-options.js'
import { connect } from '../../lib/client/connect.js'
import { nextOf, record, WebSocketImpl } from '../support/client.js'
import { delay, startServer } from '../support/server.js'

const test = suite('connect: refusals and kicks')
const FAST: ClientOptions = { WebSocket: WebSocketImpl, reconnect: { minDelay: 5, maxDelay: 20 }, random: () => 0 }

interface Identity {
  readonly user: string
}
const auth = upgradeMiddleware<Identity>((req) => {
  const token = parseQuery(req.rawQuery)['token']
  return typeof token === 'string' && token.startsWith('ok-') ? admit({ user: token.slice(3) }) : unauthorized('bad token')
})
const ids: number[] = []
const routes = [onConnect((ctx) => void ids.push(ctx.clientId)), socketOn('whoami', (_data, ctx) => clientDataOf<Identity>(ctx).user)]

for (const sessions of [true, false]) {
  test(`connect :: a refused upgrade is "refused" with 4401 and the reason, not retried; reconnect() with a renewed token gets in (sessions: ${sessions})`, async () => {
    const { server, url } = await startServer({ routes, httpMiddleware: [auth] })
    let token = 'nope'
    const c = connect(url, { ...FAST, sessions, auth: () => ({ token }) })
    const log = record(c, ['open', 'close', 'reconnecting', 'refused', 'kicked'])
    try {
      const refused = await nextOf(c, 'refused')
      assert.equal(refused, { code: 4401, reason: 'bad token' })
      await delay(50)
      assert.is(c.state, 'closed')
      assert.equal(
        log.filter(([e]) => e !== 'open').map(([e]) => e),
        ['close', 'refused'],
      )
      token = 'ok-ada'
      c.reconnect()
      await nextOf(c, 'open')
      assert.is(await c.request('whoami'), 'ada')
    } finally {
      c.close()
      await server.close()
    }
  })
}

test('connect :: a kick (4000–4999 on an open link) is "kicked", with code and reason, not retried', async () => {
  ids.length = 0
  const { server, url } = await startServer({ routes, httpMiddleware: [auth] })
  const c = connect(url, { ...FAST, auth: () => ({ token: 'ok-bob' }) })
  const log = record(c, ['reconnecting', 'kicked', 'refused'])
  try {
    await nextOf(c, 'open')
    assert.is(await c.request('whoami'), 'bob')
    const kicked = nextOf(c, 'kicked')
    server.disconnectClient(ids[0] as number, { code: 4403, reason: 'banned' })
    assert.equal(await kicked, { code: 4403, reason: 'banned' })
    await delay(50)
    assert.is(c.state, 'closed')
    assert.equal(log, [['kicked', { code: 4403, reason: 'banned' }]])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: a plain close (1000) is no kick: the client comes back', async () => {
  ids.length = 0
  const { server, url } = await startServer({ routes, httpMiddleware: [auth] })
  const c = connect(url, { ...FAST, auth: () => ({ token: 'ok-cy' }) })
  const log = record(c, ['kicked', 'refused'])
  try {
    await nextOf(c, 'open')
    server.disconnectClient(ids[0] as number)
    await nextOf(c, 'reconnected')
    assert.equal(log, [])
  } finally {
    c.close()
    await server.close()
  }
})

test('connect :: options.auth must be a function', () => {
  assert.throws(() => connect('ws://127.0.0.1:1/', { ...FAST, auth: 'x' as unknown as () => Record<string, string> }), TypeError)
})

test.run()

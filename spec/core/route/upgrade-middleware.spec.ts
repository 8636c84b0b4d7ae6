import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from '../../../lib/core/http/parse-query.js'
import { text, unauthorized } from '../../../lib/core/http/response.js'
import { clientDataOf } from '../../../lib/core/route/client-data-of.js'
import { composeHttp } from '../../../lib/core/route/compose-http.js'
import type { Handshake } from '../../../lib/core/route/handshake.js'
import { inertHttpContext } from '../../../lib/core/route/inert-http-context.js'
import { admit, upgradeMiddleware } from '../../../lib/core/route/upgrade-middleware.js'
import { httpRequest } from './support.js'

interface Identity {
  readonly user: string
  readonly role: 'admin' | 'member'
}

// A handshake that keeps what is stored in a Map.
const handshake = (): Handshake & { readonly data: Map<string, unknown> } => {
  const data = new Map<string, unknown>()
  return { data, setClientData: (key, value) => void data.set(key, value), getClientData: (key) => (key === undefined ? Object.fromEntries(data) : data.get(key)) }
}

const auth = upgradeMiddleware<Identity>((req) =>
  parseQuery(req.rawQuery)['token'] === 'secret' ? admit({ user: 'ada', role: 'admin' }) : unauthorized('bad token'),
)
const run = composeHttp([auth])
const ACCEPTED = text('101', 101)

test('upgradeMiddleware :: an admitted upgrade stores its data as the client data and goes on', async () => {
  const hs = handshake()
  const res = await run(httpRequest('GET', '/ws?token=secret'), { ...inertHttpContext, handshake: hs }, () => ACCEPTED)
  assert.is(res.status, 101)
  assert.equal(Object.fromEntries(hs.data), { user: 'ada', role: 'admin' })
  assert.equal(clientDataOf<Identity>(hs), { user: 'ada', role: 'admin' })
})

test('upgradeMiddleware :: a refused upgrade answers the response and stores nothing', async () => {
  const hs = handshake()
  const res = await run(httpRequest('GET', '/ws?token=nope'), { ...inertHttpContext, handshake: hs }, () => ACCEPTED)
  assert.is(res.status, 401)
  assert.equal(res.body, { error: 'bad token' })
  assert.is(hs.data.size, 0)
})

test('upgradeMiddleware :: a request that is no upgrade (no ctx.handshake) passes untouched, unchecked', async () => {
  let checked = 0
  const counting = composeHttp([upgradeMiddleware(() => (checked++, unauthorized()))])
  const res = await counting(httpRequest('GET', '/api'), inertHttpContext, () => text('ok'))
  assert.is(res.body, 'ok')
  assert.is(checked, 0)
})

test('upgradeMiddleware :: an asynchronous check; an outer middleware’s data is seen by an inner one', async () => {
  const hs = handshake()
  const outer = upgradeMiddleware(async () => admit({ tenant: 't1' }))
  const inner = upgradeMiddleware((_req, ctx) => admit({ seen: ctx.handshake?.getClientData('tenant') }))
  const res = await composeHttp([outer, inner])(httpRequest('GET', '/ws'), { ...inertHttpContext, handshake: hs }, () => ACCEPTED)
  assert.is(res.status, 101)
  assert.equal(Object.fromEntries(hs.data), { tenant: 't1', seen: 't1' })
})

test('admit :: without data admits with none', () => {
  assert.equal(admit(), { _tag: 'Admitted', data: {} })
})

test.run()

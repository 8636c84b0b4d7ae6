/** originGuard: cross-site WebSocket upgrades, event streams and writes get 403; reads go on. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type HttpContext, type HttpRequest, noContent, type Response } from '../../../lib/index.js'
import { originPolicy } from '../../../examples/chat/origin-policy.js'
import { originGuard, requestHeader } from '../../../examples/chat/origin-guard.js'

const guard = originGuard(originPolicy([]))
const UPGRADE = [['Upgrade', 'websocket'], ['Connection', 'Upgrade']] as const

// Only `method` and `headers` are read by the guard (and by isWebSocketUpgrade).
const requestWith = (headers: readonly (readonly [string, string])[], method: string): HttpRequest => ({ method, headers }) as unknown as HttpRequest

const run = async (headers: readonly (readonly [string, string])[], method = 'GET'): Promise<{ status: number; reached: boolean }> => {
  let reached = false
  const res: Response = await guard(
    requestWith(headers, method),
    async () => {
      reached = true
      return noContent()
    },
    {} as HttpContext,
  )
  return { status: res.status, reached }
}

test('originGuard :: upgrades from the own page or without Origin go on', async () => {
  assert.equal(await run([...UPGRADE, ['Host', 'localhost:6001'], ['Origin', 'http://localhost:6001']]), { status: 204, reached: true })
  assert.equal(await run([...UPGRADE, ['Host', 'localhost:6001']]), { status: 204, reached: true })
})

test('originGuard :: an upgrade from another site gets 403 and goes no further', async () => {
  assert.equal(await run([...UPGRADE, ['host', 'localhost:6001'], ['origin', 'https://evil.example']]), { status: 403, reached: false })
})

test('originGuard :: reads from another site go on (CORS decides what its page may see)', async () => {
  assert.equal(await run([['Host', 'localhost:6001'], ['Origin', 'https://evil.example']]), { status: 204, reached: true })
  assert.equal(await run([['Host', 'localhost:6001'], ['Origin', 'https://evil.example']], 'OPTIONS'), { status: 204, reached: true })
})

test('originGuard :: writes and event streams from another site get 403; from the own page or without Origin they go on', async () => {
  const evil = [['Host', 'localhost:6001'], ['Origin', 'https://evil.example']] as const
  for (const method of ['POST', 'PUT', 'PATCH', 'DELETE']) assert.equal(await run(evil, method), { status: 403, reached: false }, method)
  assert.equal(await run([...evil, ['Accept', 'text/event-stream']]), { status: 403, reached: false })
  assert.equal(await run([['Host', 'localhost:6001'], ['Origin', 'http://localhost:6001']], 'POST'), { status: 204, reached: true })
  assert.equal(await run([['Host', 'localhost:6001'], ['Accept', 'text/event-stream']]), { status: 204, reached: true })
})

test('requestHeader :: the first value, names in any case', () => {
  const headers = [['X-A', '1'], ['x-a', '2'], ['Host', 'h']] as const
  assert.is(requestHeader(headers, 'x-a'), '1')
  assert.is(requestHeader(headers, 'host'), 'h')
  assert.is(requestHeader(headers, 'origin'), undefined)
})

test.run()

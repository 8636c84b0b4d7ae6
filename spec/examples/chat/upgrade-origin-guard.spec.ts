/** upgradeOriginGuard: cross-site WebSocket upgrades get 403; everything else goes on. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type HttpContext, type HttpRequest, noContent, type Response } from '../../../lib/index.js'
import { originPolicy } from '../../../examples/chat/origin-policy.js'
import { requestHeader, upgradeOriginGuard } from '../../../examples/chat/upgrade-origin-guard.js'

const guard = upgradeOriginGuard(originPolicy([]))
const UPGRADE = [['Upgrade', 'websocket'], ['Connection', 'Upgrade']] as const

// Only `headers` is read by the guard (and by isWebSocketUpgrade).
const requestWith = (headers: readonly (readonly [string, string])[]): HttpRequest => ({ headers }) as unknown as HttpRequest

const run = async (headers: readonly (readonly [string, string])[]): Promise<{ status: number; reached: boolean }> => {
  let reached = false
  const res: Response = await guard(
    requestWith(headers),
    async () => {
      reached = true
      return noContent()
    },
    {} as HttpContext,
  )
  return { status: res.status, reached }
}

test('upgradeOriginGuard :: upgrades from the own page or without Origin go on', async () => {
  assert.equal(await run([...UPGRADE, ['Host', 'localhost:6001'], ['Origin', 'http://localhost:6001']]), { status: 204, reached: true })
  assert.equal(await run([...UPGRADE, ['Host', 'localhost:6001']]), { status: 204, reached: true })
})

test('upgradeOriginGuard :: an upgrade from another site gets 403 and goes no further', async () => {
  assert.equal(await run([...UPGRADE, ['host', 'localhost:6001'], ['origin', 'https://evil.example']]), { status: 403, reached: false })
})

test('upgradeOriginGuard :: plain requests are not its business (the routes check writes)', async () => {
  assert.equal(await run([['Host', 'localhost:6001'], ['Origin', 'https://evil.example']]), { status: 204, reached: true })
})

test('requestHeader :: the first value, names in any case', () => {
  const headers = [['X-A', '1'], ['x-a', '2'], ['Host', 'h']] as const
  assert.is(requestHeader(headers, 'x-a'), '1')
  assert.is(requestHeader(headers, 'host'), 'h')
  assert.is(requestHeader(headers, 'origin'), undefined)
})

test.run()

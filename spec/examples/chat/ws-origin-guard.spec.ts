/** wsOriginGuard: events of refused connections never reach the routes. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ack, type EventOutcome, noReply, type SocketContext } from '../../../lib/index.js'
import { originPolicy } from '../../../examples/chat/origin-policy.js'
import { requestHeader, wsOriginGuard } from '../../../examples/chat/ws-origin-guard.js'

// Only `request.headers` is read by the guard.
const ctxWith = (headers: readonly (readonly [string, string])[]): SocketContext => ({ request: { headers } }) as unknown as SocketContext

const guard = wsOriginGuard(originPolicy([]))
const message = { event: 'hello', data: { name: 'x' }, id: 1 }

const run = async (headers: readonly (readonly [string, string])[]): Promise<{ outcome: EventOutcome; reached: boolean }> => {
  let reached = false
  const outcome = await guard(
    message,
    async () => {
      reached = true
      return ack(1, 'ok')
    },
    ctxWith(headers),
  )
  return { outcome, reached }
}

test('wsOriginGuard :: the own page and clients without Origin go on', async () => {
  assert.equal(await run([['Host', 'localhost:6001'], ['Origin', 'http://localhost:6001']]), { outcome: ack(1, 'ok'), reached: true })
  assert.equal(await run([['Host', 'localhost:6001']]), { outcome: ack(1, 'ok'), reached: true })
})

test('wsOriginGuard :: another site is answered nothing and the routes never run', async () => {
  assert.equal(await run([['host', 'localhost:6001'], ['origin', 'https://evil.example']]), { outcome: noReply, reached: false })
})

test('requestHeader :: the first value, names in any case', () => {
  const headers = [['X-A', '1'], ['x-a', '2'], ['Host', 'h']] as const
  assert.is(requestHeader(headers, 'x-a'), '1')
  assert.is(requestHeader(headers, 'host'), 'h')
  assert.is(requestHeader(headers, 'origin'), undefined)
})

test.run()

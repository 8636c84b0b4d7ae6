import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { resolveClientOptions } from '../../lib/client/client-options.js'
import { systemClock } from '../../lib/client/clock.js'
import { shouldReconnect } from '../../lib/client/should-reconnect.js'
import { WebSocketImpl } from '../support/client.js'

const test = suite('resolveClientOptions')

test('resolveClientOptions :: fills in every default', () => {
  const o = resolveClientOptions({ WebSocket: WebSocketImpl })
  assert.equal(o, {
    WebSocket: WebSocketImpl,
    protocols: undefined,
    reconnect: { minDelay: 500, maxDelay: 10_000, maxAttempts: Infinity, shouldReconnect },
    queueSize: 100,
    timeout: 10_000,
    maxMessageBytes: 16 * 1024 * 1024,
    sessions: true,
    heartbeatGrace: 10_000,
    random: Math.random,
    clock: systemClock,
    auth: undefined,
  })
})

test('resolveClientOptions :: keeps what is given; maxDelay is at least minDelay', () => {
  const retry = (): boolean => true
  const o = resolveClientOptions({
    WebSocket: WebSocketImpl,
    protocols: ['a', 'b'],
    reconnect: { minDelay: 50, maxDelay: 10, maxAttempts: 3, shouldReconnect: retry },
    queueSize: 0,
    timeout: 0,
    sessions: false,
  })
  assert.equal(o.reconnect, { minDelay: 50, maxDelay: 50, maxAttempts: 3, shouldReconnect: retry })
  assert.equal([o.protocols, o.queueSize, o.timeout, o.sessions], [['a', 'b'], 0, 0, false])
  assert.is(resolveClientOptions({ WebSocket: WebSocketImpl, reconnect: false }).reconnect, false)
  assert.is(resolveClientOptions({ WebSocket: WebSocketImpl, protocols: 'p' }).protocols, 'p')
})

test('resolveClientOptions :: a negative, NaN or non-number option is a TypeError naming it', () => {
  const bad: [object, string][] = [
    [{ queueSize: -1 }, 'queueSize'],
    [{ timeout: Number.NaN }, 'timeout'],
    [{ maxMessageBytes: '5' }, 'maxMessageBytes'],
    [{ heartbeatGrace: -5 }, 'heartbeatGrace'],
    [{ reconnect: { minDelay: -1 } }, 'reconnect.minDelay'],
    [{ reconnect: { maxDelay: Number.NaN } }, 'reconnect.maxDelay'],
    [{ reconnect: { maxAttempts: -2 } }, 'reconnect.maxAttempts'],
  ]
  for (const [options, name] of bad) {
    assert.throws(
      () => resolveClientOptions({ WebSocket: WebSocketImpl, ...options }),
      (e: Error) => e instanceof TypeError && e.message === `bad options.${name}`,
      name,
    )
  }
})

test('resolveClientOptions :: without a WebSocket constructor it says how to pass one', () => {
  const saved = (globalThis as { WebSocket?: unknown }).WebSocket
  ;(globalThis as { WebSocket?: unknown }).WebSocket = undefined
  try {
    assert.throws(() => resolveClientOptions({}), (e: Error) => e instanceof TypeError && e.message === 'no WebSocket')
  } finally {
    ;(globalThis as { WebSocket?: unknown }).WebSocket = saved
  }
})

test.run()

/**
 * `connect` over a scripted WebSocket, for what a real socket seldom does: a constructor that
 * throws, a close code of 0, error events with and without text, a close that throws, a
 * random source that throws. The transport alone is scripted; no server behaviour is faked.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import type { WebSocketLike } from '../../lib/client/web-socket-like.js'
import { manualClock, record } from '../support/client.js'

type Handler = ((event: unknown) => void) | null

/** A WebSocket whose events the test fires. */
class ScriptedSocket implements WebSocketLike {
  static made: ScriptedSocket[] = []
  static failNext: Error | undefined
  readyState = 0
  binaryType = 'blob'
  onopen: Handler = null
  onmessage: Handler = null
  onerror: Handler = null
  onclose: Handler = null
  readonly sent: string[] = []
  closedWith: [number | undefined, string | undefined] | undefined
  constructor(
    readonly url: string,
    readonly protocols?: string | string[],
  ) {
    const fail = ScriptedSocket.failNext
    ScriptedSocket.failNext = undefined
    if (fail !== undefined) throw fail
    ScriptedSocket.made.push(this)
  }
  send(data: string): void {
    this.sent.push(data)
  }
  close(code?: number, reason?: string): void {
    if (reason !== undefined && reason.length > 123) throw new SyntaxError('reason too long')
    if (code === 4000) throw new Error('cannot close')
    this.closedWith = [code, reason]
  }
  fireOpen(): void {
    this.readyState = 1
    this.onopen?.({})
  }
  fireMessage(data: unknown): void {
    this.onmessage?.({ data })
  }
  // An error ends the connection, so real sockets are CLOSING (ws) or CLOSED (browsers) by
  // then, with a close event to follow; Node 22's (undici) stays CONNECTING after a failed
  // connection and sends nothing more: `readyState` 0 plays that.
  fireError(message?: string, readyState = 2): void {
    this.readyState = readyState
    this.onerror?.(message === undefined ? {} : { message })
  }
  fireClose(code: number, reason = ''): void {
    this.readyState = 3
    this.onclose?.({ code, reason })
  }
}

const test = suite('connect: scripted socket')

test.before.each(() => {
  ScriptedSocket.made = []
  ScriptedSocket.failNext = undefined
})

const last = (): ScriptedSocket => ScriptedSocket.made[ScriptedSocket.made.length - 1] as ScriptedSocket

test('connect :: sets binaryType to arraybuffer and sends nothing before open', () => {
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock: manualClock() })
  assert.is(last().binaryType, 'arraybuffer')
  c.emit('e', 1)
  assert.equal(last().sent, [])
  last().fireOpen()
  assert.equal(last().sent, ['{"event":"e","data":1}'])
  c.close()
})

test('connect :: a constructor that throws is a SocketError and an attempt like any other', () => {
  const clock = manualClock()
  ScriptedSocket.failNext = new SyntaxError('bad')
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock, random: () => 0, reconnect: { minDelay: 10 } })
  const log = record(c, ['error', 'close', 'reconnecting'])
  // The first attempt failed inside connect, before any listener: they hear the next ones.
  assert.equal([c.state, ScriptedSocket.made.length], ['reconnecting', 0])
  ScriptedSocket.failNext = new SyntaxError('still bad')
  clock.advance(10)
  assert.equal(log, [
    ['error', { _tag: 'SocketError', message: 'SyntaxError: still bad' }],
    ['close', { code: 1006, reason: 'SyntaxError: still bad', reconnect: true }],
    ['reconnecting', { attempt: 2, delay: 10 }],
  ])
  clock.advance(10)
  assert.is(ScriptedSocket.made.length, 1)
  c.close()
})

test('connect :: a close code of 0 is reported as 1006', () => {
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock: manualClock(), reconnect: false })
  const log = record(c, ['close'])
  last().fireOpen()
  last().fireClose(0)
  assert.equal(log, [['close', { code: 1006, reason: '', reconnect: false }]])
})

test('connect :: socket errors are reported with their text when there is one', () => {
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock: manualClock() })
  const log = record(c, ['error'])
  last().fireError('connect ECONNREFUSED')
  last().fireError()
  assert.equal(log, [
    ['error', { _tag: 'SocketError', message: 'connect ECONNREFUSED' }],
    ['error', { _tag: 'SocketError', message: 'socket error' }],
  ])
  c.close()
})

test('connect :: an error that leaves the socket CONNECTING (Node 22) ends that connection: close 1006, then a retry', () => {
  const clock = manualClock()
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock, random: () => 0, reconnect: { minDelay: 10 } })
  const log = record(c, ['error', 'close', 'reconnecting'])
  const failed = last()
  failed.fireError('Received network error or non-101 status code.', 0)
  assert.equal(log, [
    ['error', { _tag: 'SocketError', message: 'Received network error or non-101 status code.' }],
    ['close', { code: 1006, reason: '', reconnect: true }],
    ['reconnecting', { attempt: 1, delay: 10 }],
  ])
  // Detached: should it send a close after all, nothing changes.
  failed.fireClose(1006)
  assert.is(log.length, 3)
  clock.advance(10)
  assert.is(ScriptedSocket.made.length, 2)
  last().fireOpen()
  assert.is(c.state, 'open')
  c.close()
})

test('connect :: close with a reason the socket refuses still closes, without the reason', () => {
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock: manualClock() })
  const socket = last()
  socket.fireOpen()
  c.close(1000, 'x'.repeat(200))
  assert.equal(socket.closedWith, [1000, undefined])
  // Detached: a late event from the old socket changes nothing.
  socket.fireClose(1006)
  assert.is(c.state, 'closed')
})

test('connect :: a dead link whose socket cannot even close still ends and reconnects', () => {
  const clock = manualClock()
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock, heartbeatGrace: 0, random: () => 0, reconnect: { minDelay: 1 } })
  const log = record(c, ['close'])
  last().fireOpen()
  last().fireMessage('{"event":"tp:session","data":{"sid":"s","recovered":false,"heartbeat":50}}')
  clock.advance(50)
  assert.equal(log, [['close', { code: 1006, reason: 'no heartbeat in 50 ms', reconnect: true }]])
  clock.advance(1)
  assert.is(ScriptedSocket.made.length, 2)
  assert.is(last().url, 'ws://example.test/?tp_v=1&tp_b=16777216&tp_sid=s&tp_last=0&tp_r=1')
  c.close()
})

test('connect :: a random source that throws is reported and the minimum delay is used', () => {
  const clock = manualClock()
  const c = connect('ws://example.test/', {
    WebSocket: ScriptedSocket,
    clock,
    reconnect: { minDelay: 7 },
    random: () => {
      throw new Error('no entropy')
    },
  })
  const log = record(c, ['error', 'reconnecting'])
  last().fireOpen()
  last().fireClose(1006)
  assert.equal(
    log.map(([e, p]) => [e, (p as { message?: string }).message ?? p]),
    [
      ['error', 'listener threw'],
      ['reconnecting', { attempt: 1, delay: 7 }],
    ],
  )
  c.close()
})

test('connect :: in-flight requests are sent again first, then the queue, on reopen', () => {
  const clock = manualClock()
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock, random: () => 0, reconnect: { minDelay: 1 }, sessions: false })
  last().fireOpen()
  void c.request('a').catch(() => undefined)
  last().fireClose(1006)
  c.emit('b')
  void c.request('c').catch(() => undefined)
  clock.advance(1)
  last().fireOpen()
  assert.equal(last().sent, ['{"event":"a","data":null,"id":1}', '{"event":"b","data":null}', '{"event":"c","data":null,"id":2}'])
  c.close()
})

test('connect :: a listener of reconnecting that closes the client is obeyed', () => {
  const clock = manualClock()
  const c = connect('ws://example.test/', { WebSocket: ScriptedSocket, clock, random: () => 0, reconnect: { minDelay: 1 } })
  last().fireOpen()
  c.on('reconnecting', () => c.close())
  last().fireClose(1006)
  assert.is(c.state, 'closed')
  clock.advance(10)
  assert.is(ScriptedSocket.made.length, 1)
})

test.run()

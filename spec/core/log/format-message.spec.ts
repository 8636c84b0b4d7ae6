import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatMessage } from '../../../lib/core/log/format-message.js'
import { safeJson } from '../../../lib/core/log/safe-json.js'

const T = '2024-05-01T12:00:00.000Z'

test('formatMessage :: timestamp, upper-case level, message', () => {
  assert.is(formatMessage('warning', 'disk low', {}, new Date(T)), `[${T}] WARNING: disk low`)
  assert.is(formatMessage('debug', 'x', {}, 'yesterday'), '[yesterday] DEBUG: x')
  assert.is(formatMessage('info', 'x', {}, new Date(Number.NaN)), '[Invalid Date] INFO: x')
})

test('formatMessage :: interpolates placeholders and appends the context as JSON', () => {
  const line = formatMessage('info', 'user {user.name} joined {room} {missing}', { 'user.name': 'ada', room: 'lobby' }, T)
  assert.is(line, `[${T}] INFO: user ada joined lobby {missing} {"user.name":"ada","room":"lobby"}`)
})

test('formatMessage :: renders each kind of value in a placeholder', () => {
  const when = new Date(T)
  const ctx = { n: 1.5, b: false, big: 12n, nil: null, d: when, bad: new Date(Number.NaN), e: new Error('oops'), o: { a: [1] }, u: undefined, f: () => 1 }
  const line = formatMessage('info', '{n} {b} {big} {nil} {d} {bad} {e} {o} {u} {f} {toString}', ctx, T)
  assert.ok(line.startsWith(`[${T}] INFO: 1.5 false 12 null ${T} Invalid Date oops {"a":[1]} {u} {f} {toString} `), line)
  assert.ok(line.endsWith(`"big":"12","nil":null,"d":"${T}","bad":null,"e":{"name":"Error","message":"oops"},"o":{"a":[1]}}`), line)
})

test('formatMessage :: the stack of context.exception follows the line', () => {
  const error = new Error('broken')
  const line = formatMessage('error', 'broken', { exception: error, clientId: 3 }, T)
  const [first, ...rest] = line.split('\n')
  assert.is(first, `[${T}] ERROR: broken {"clientId":3}`)
  assert.is(rest.join('\n'), error.stack)
  const notAnError = formatMessage('error', 'x', { exception: { _tag: 'NextCalledTwice' } }, T)
  assert.is(notAnError, `[${T}] ERROR: x {"exception":{"_tag":"NextCalledTwice"}}`)
})

test('safeJson :: survives cycles, bigints and throwing toJSON', () => {
  const cyclic: Record<string, unknown> = { a: 1 }
  cyclic.self = cyclic
  assert.is(safeJson(cyclic), '{"a":1,"self":"[Circular]"}')
  assert.is(safeJson({ n: 1n }), '{"n":"1"}')
  assert.is(safeJson(undefined), undefined)
  assert.is(safeJson({ toJSON: () => { throw new Error('no') } }), '"[unserialisable]"')
})

test.run()

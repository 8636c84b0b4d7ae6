/**
 * The wire module shared by the server and the client: its rules by example, and that it
 * stays dependency-free (the client bundles it into browsers).
 */
import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BATCH_SEPARATOR, encodeAck, encodeEnvelope, envelopeFault, numberEnvelope, sessionMessage, sessionQuery } from '../../../lib/core/ws/envelope-wire.js'

test('envelopeFault :: an object with a non-empty event, a string or number id, any other keys', () => {
  for (const value of [{ event: 'a' }, { event: 'a', data: null, id: 'x' }, { event: 'a', id: 1.5, extra: [] }, { event: 'a', seq: 'any' }]) assert.is(envelopeFault(value, false), '', JSON.stringify(value))
})

test('envelopeFault :: names the first field at fault', () => {
  for (const value of [null, 1, 'a', [1], true]) assert.is(envelopeFault(value, false), 'not an object', JSON.stringify(value))
  for (const value of [{}, { event: '' }, { event: 1 }, { event: '', id: {} }]) assert.is(envelopeFault(value, false), 'bad "event"', JSON.stringify(value))
  for (const value of [{ event: 'a', id: null }, { event: 'a', id: [] }, { event: 'a', id: true }]) assert.is(envelopeFault(value, false), 'bad "id"', JSON.stringify(value))
})

test('envelopeFault :: seq is checked for numbered (server) messages only: a positive safe integer', () => {
  assert.is(envelopeFault({ event: 'a', seq: 7 }, true), '')
  assert.is(envelopeFault({ event: 'a' }, true), '')
  for (const seq of [0, -1, 1.5, '3', null, 2 ** 53]) {
    assert.is(envelopeFault({ event: 'a', seq }, true), 'bad "seq"', String(seq))
    assert.is(envelopeFault({ event: 'a', seq }, false), '', String(seq))
  }
})

test('encodeEnvelope :: undefined data as null, id only when set', () => {
  assert.is(encodeEnvelope('chat', { text: 'hi' }), '{"event":"chat","data":{"text":"hi"}}')
  assert.is(encodeEnvelope('join', undefined, 3), '{"event":"join","data":null,"id":3}')
  assert.is(encodeEnvelope('join', 0, 'r1'), '{"event":"join","data":0,"id":"r1"}')
})

test('encodeAck, numberEnvelope, sessionMessage, sessionQuery :: their texts', () => {
  assert.is(encodeAck(7, { ok: true }), '{"event":"ack","id":7,"data":{"ok":true}}')
  assert.is(encodeAck('a', undefined), '{"event":"ack","id":"a","data":null}')
  assert.is(numberEnvelope('{"event":"chat","data":1}', 3), '{"event":"chat","data":1,"seq":3}')
  assert.is(sessionMessage('abc', true, 25000), '{"event":"tp:session","data":{"sid":"abc","recovered":true,"heartbeat":25000}}')
  assert.is(sessionQuery(16777216), 'tp_v=1&tp_b=16777216')
  assert.is(sessionQuery(64, 'ab-C_9', 0), 'tp_v=1&tp_b=64&tp_sid=ab-C_9&tp_last=0')
  assert.is(BATCH_SEPARATOR, '\x1e')
})

test('envelope-wire :: imports nothing at run time (no io-ts, no fp-ts: the client bundles it)', () => {
  const source = readFileSync(new URL('../../../lib/core/ws/envelope-wire.ts', import.meta.url), 'utf8')
  const imports = source.split('\n').filter((line) => /^\s*(import|export)\b.*\bfrom\b/.test(line))
  for (const line of imports) assert.match(line, /^import type /, line)
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { BATCHES, countHeads, echoFrames, switchingProtocols, upgradeHead } from '../../../bench/peers/raw-wire.js'
import { maskedFrame, OPCODE } from '../../../bench/load/ws-frames.js'

const hex = (h: string): Uint8Array => Uint8Array.from(h.replace(/\s+/g, '').match(/../g) ?? [], (b) => parseInt(b, 16))
const text = (s: string): Uint8Array => new TextEncoder().encode(s)
const KEY = hex('37fa213d')

test('countHeads :: counts CR LF CR LF across chunk boundaries', () => {
  const state = { matched: 0 }
  const two = text('GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n')
  assert.is(countHeads(state, two), 2)
  let heads = 0
  for (const byte of text('GET / HTTP/1.1\r\n\r\n')) heads += countHeads(state, Uint8Array.of(byte))
  assert.is(heads, 1)
  assert.is(countHeads(state, text('GET / HTTP/1.1\r\n\r')), 0)
  assert.is(countHeads(state, text('\n')), 1)
})

test('BATCHES :: n canned responses back to back', () => {
  const one = new TextDecoder().decode(BATCHES[1])
  assert.ok(one.startsWith('HTTP/1.1 200 OK\r\n') && one.endsWith('{"hello":"world"}'))
  assert.is(BATCHES[10]?.length, 10 * (BATCHES[1]?.length ?? 0))
  assert.is(BATCHES[0]?.length, 0)
})

test('upgradeHead + switchingProtocols :: the RFC 6455 §1.3 example key', () => {
  const head = upgradeHead(text('GET /bcast HTTP/1.1\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n'))
  assert.ok(head?.startsWith('GET /bcast '))
  assert.match(new TextDecoder().decode(switchingProtocols(head ?? '')), 'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n')
  assert.is(upgradeHead(text('GET /hello HTTP/1.1\r\n\r\n')), undefined)
  assert.is(upgradeHead(text('POST / HTTP/1.1\r\nUpgrade: websocket\r\n\r\n')), undefined)
})

test('echoFrames :: unmasks complete data frames, drops control frames, keeps a partial tail', () => {
  const hello = maskedFrame(OPCODE.text, text('Hello'), KEY)
  const ping = maskedFrame(OPCODE.ping, text('p'), KEY)
  const state = { pending: undefined as Uint8Array | undefined }
  const both = new Uint8Array([...hello, ...ping, ...hello.subarray(0, 3)])
  // RFC 6455 §5.7: a single-frame unmasked text message "Hello" is 0x81 0x05 48 65 6c 6c 6f.
  assert.equal(echoFrames(state, both), hex('8105 48656c6c6f'))
  assert.is(state.pending?.length, 3)
  assert.equal(echoFrames(state, hello.subarray(3)), hex('8105 48656c6c6f'))
  assert.is(state.pending, undefined)
})

test('echoFrames :: 16- and 64-bit lengths, fed whole and byte by byte', () => {
  const medium = maskedFrame(OPCODE.binary, new Uint8Array(300).fill(7), KEY)
  const whole = echoFrames({ pending: undefined }, medium)
  assert.equal(whole.subarray(0, 4), hex('827e 012c'))
  assert.is(whole.length, 304)
  assert.ok(whole.subarray(4).every((b) => b === 7))
  const state = { pending: undefined as Uint8Array | undefined }
  const pieces: number[] = []
  for (const byte of medium) pieces.push(...echoFrames(state, Uint8Array.of(byte)))
  assert.equal(Uint8Array.from(pieces), whole)
  // A 64-bit length header arriving in pieces is never read before it is whole.
  const big = hex('82ff 0000 0000 0001 0000')
  assert.is(echoFrames({ pending: undefined }, big.subarray(0, 7)).length, 0)
})

test.run()

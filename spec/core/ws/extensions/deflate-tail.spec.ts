import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFLATE_TAIL, stripDeflateTail } from '../../../../lib/core/ws/extensions/deflate-tail.js'
import { hex } from '../hex.js'

test('stripDeflateTail :: removes 00 00 ff ff (RFC 7692 §7.2.1, the "Hello" of §7.2.3.1)', () => {
  // "The endpoint compresses "Hello" into one compressed DEFLATE block and flushes the
  // resulting data into a byte array using an empty DEFLATE block with no compression:
  // 0xf2 0x48 0xcd 0xc9 0xc9 0x07 0x00 0x00 0x00 0xff 0xff. By stripping 0x00 0x00 0xff
  // 0xff from the tail end, the endpoint gets the data to use for the message payload".
  const flushed = hex('f2 48 cd c9 c9 07 00 00 00 ff ff')
  const payload = stripDeflateTail(flushed)
  assert.equal(payload, hex('f2 48 cd c9 c9 07 00'))
  assert.is(payload.buffer, flushed.buffer, 'a view, not a copy')
})

test('stripDeflateTail :: a flush of nothing gives the single byte 00 (RFC 7692 §7.2.3.6)', () => {
  assert.equal(stripDeflateTail(hex('00 00 ff ff')), hex('00'))
  assert.equal(stripDeflateTail(hex('')), hex('00'))
  assert.equal(stripDeflateTail(hex('00 00 00 ff ff')), hex('00'))
})

test('stripDeflateTail :: output without the tail is left as it is', () => {
  assert.equal(stripDeflateTail(hex('f3 48 cd c9 c9 07 00')), hex('f3 48 cd c9 c9 07 00'))
  assert.equal(stripDeflateTail(hex('00 ff ff')), hex('00 ff ff'))
  assert.equal(stripDeflateTail(hex('01 00 ff ff')), hex('01 00 ff ff'))
  assert.equal(stripDeflateTail(hex('00 01 ff ff')), hex('00 01 ff ff'))
  assert.equal(stripDeflateTail(hex('00 00 fe ff')), hex('00 00 fe ff'))
  assert.equal(stripDeflateTail(hex('00 00 ff fe')), hex('00 00 ff fe'))
})

test('DEFLATE_TAIL :: is 00 00 ff ff', () => {
  assert.equal(DEFLATE_TAIL, hex('00 00 ff ff'))
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { crc32 } from '../../../lib/core/cluster/crc32.js'
import { hex, utf8 } from '../ws/hex.js'

test('crc32 :: the check value of CRC-32/ISO-HDLC ("123456789" gives cbf43926)', () => {
  assert.is(crc32(utf8('123456789')), 0xcbf43926)
})

test('crc32 :: empty input, sixteen zero bytes, and a range of a larger array', () => {
  assert.is(crc32(new Uint8Array(0)), 0)
  assert.is(crc32(new Uint8Array(16)), 0xecbb4b55)
  assert.is(crc32(hex('ff 31 32 33 34 35 36 37 38 39 ff'), 1, 10), 0xcbf43926)
})

test.run()

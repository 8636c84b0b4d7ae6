import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseRedisInfo, redisDelta } from '../../../bench/recovery/redis-info.js'

// As Redis 7 answers `INFO memory commandstats` (abridged), with its CRLF line ends.
const BEFORE = [
  '# Memory',
  'used_memory:1048576',
  'used_memory_human:1.00M',
  'used_memory_dataset:40000',
  'used_memory_dataset_perc:4.00%',
  '',
  '# Commandstats',
  'cmdstat_evalsha:calls=10,usec=900,usec_per_call=90.00,rejected_calls=0,failed_calls=0',
  'cmdstat_xadd:calls=100,usec=300,usec_per_call=3.00,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=3,usec=30,usec_per_call=10.00,rejected_calls=0,failed_calls=0',
  '',
].join('\r\n')
const AFTER = [
  'used_memory:3145728',
  'used_memory_dataset:1040000',
  'cmdstat_evalsha:calls=25,usec=900,usec_per_call=90.00,rejected_calls=0,failed_calls=0',
  'cmdstat_xadd:calls=100,usec=300,usec_per_call=3.00,rejected_calls=0,failed_calls=0',
  'cmdstat_get:calls=4,usec=8,usec_per_call=2.00,rejected_calls=0,failed_calls=0',
  'cmdstat_info:calls=5,usec=50,usec_per_call=10.00,rejected_calls=0,failed_calls=0',
].join('\n')

test('parseRedisInfo :: used_memory, the dataset, and the calls per command from CRLF lines', () => {
  const info = parseRedisInfo(BEFORE)
  assert.is(info.usedMemory, 1048576)
  assert.is(info.dataset, 40000)
  assert.equal([...info.calls], [['evalsha', 10], ['xadd', 100], ['info', 3]])
})

test('parseRedisInfo :: command names in lower case; NaN memory when the section is missing', () => {
  const info = parseRedisInfo('cmdstat_EVALSHA:calls=2,usec=1\n')
  assert.equal([...info.calls], [['evalsha', 2]])
  assert.ok(Number.isNaN(info.usedMemory))
  assert.ok(Number.isNaN(info.dataset))
})

test('parseRedisInfo :: other lines and malformed stats are ignored', () => {
  const info = parseRedisInfo('used_memory_peak:99\ncmdstat_get:usec=5\nused_memory:x\n')
  assert.is(info.calls.size, 0)
  assert.ok(Number.isNaN(info.usedMemory))
})

test('redisDelta :: calls that grew, a command new since the first reading, INFO left out', () => {
  const delta = redisDelta(parseRedisInfo(BEFORE), parseRedisInfo(AFTER))
  assert.equal([...delta.calls], [['evalsha', 15], ['get', 4]])
  assert.is(delta.total, 19)
  assert.is(delta.usedMemory, 2097152)
  assert.is(delta.dataset, 1000000)
})

test('redisDelta :: ignore names more commands; a counter that went down (a restart) counts nothing', () => {
  const delta = redisDelta(parseRedisInfo(AFTER), parseRedisInfo(BEFORE), ['info', 'xadd'])
  assert.is(delta.total, 0)
  assert.is(delta.calls.size, 0)
})

test.run()

/**
 * The open-file limit as the kernel shows it (lib/runtime/open-file-limit.ts): the soft limit
 * of "Max open files" in `/proc/self/limits`; "unlimited" or no such line is unknown. On Linux
 * the process's own file is read too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { openFileLimit, parseOpenFileLimit } from '../../lib/runtime/open-file-limit.js'

const LIMITS = `Limit                     Soft Limit           Hard Limit           Units
Max cpu time              unlimited            unlimited            seconds
Max open files            20000                1048576              files
Max locked memory         8388608              8388608              bytes
`

test('parseOpenFileLimit :: the soft limit of "Max open files"', () => {
  assert.is(parseOpenFileLimit(LIMITS), 20_000)
  assert.is(parseOpenFileLimit(LIMITS.replace('20000 ', 'unlimited')), undefined)
  assert.is(parseOpenFileLimit('Max cpu time unlimited unlimited seconds\n'), undefined)
})

test('openFileLimit :: a positive integer on Linux, undefined elsewhere', () => {
  const limit = openFileLimit()
  if (process.platform === 'linux') assert.ok(limit !== undefined && Number.isSafeInteger(limit) && limit > 0, String(limit))
  else assert.is(limit, undefined)
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { getLevels } from '../../../lib/core/log/get-levels.js'
import { isValidLevel } from '../../../lib/core/log/is-valid-level.js'
import { levelToString } from '../../../lib/core/log/level-to-string.js'
import { LogLevel } from '../../../lib/core/log/log-level.js'
import { shouldLog } from '../../../lib/core/log/should-log.js'
import { toInt } from '../../../lib/core/log/to-int.js'

test('LogLevel :: the eight PSR-3 names', () => {
  assert.equal(Object.values(LogLevel), ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'])
})

test('getLevels :: most severe first, with strictly falling priorities', () => {
  const levels = getLevels()
  assert.equal(levels, Object.values(LogLevel))
  assert.equal(levels.map(toInt), [7, 6, 5, 4, 3, 2, 1, 0])
})

test('isValidLevel :: only the lower-case names', () => {
  assert.ok(getLevels().every(isValidLevel))
  for (const bad of ['ERROR', 'warn', '', 'toString', '__proto__', 'constructor']) assert.is(isValidLevel(bad), false, bad)
})

test('levelToString :: inverts toInt, undefined elsewhere', () => {
  for (const level of getLevels()) assert.is(levelToString(toInt(level)), level)
  for (const n of [-1, 8, 1.5, Number.NaN]) assert.is(levelToString(n), undefined)
})

test('shouldLog :: a level passes when at least as severe as the minimum', () => {
  assert.is(shouldLog('debug', 'debug'), true)
  assert.is(shouldLog('warning', 'error'), true)
  assert.is(shouldLog('warning', 'warning'), true)
  assert.is(shouldLog('warning', 'notice'), false)
  assert.is(shouldLog('emergency', 'alert'), false)
  for (const min of getLevels()) for (const level of getLevels()) assert.is(shouldLog(min, level), toInt(level) >= toInt(min))
})

test.run()

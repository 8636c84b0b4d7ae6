import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LogEntry } from '../../../lib/core/log/logger.js'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import { silentLogger } from '../../../lib/core/log/silent-logger.js'

const capture = (min?: Parameters<typeof makeLogger>[1]) => {
  const entries: LogEntry[] = []
  return { entries, logger: makeLogger((e) => entries.push(e), min) }
}

test('makeLogger :: the eight methods write their level; debug is the default minimum', () => {
  const { entries, logger } = capture()
  logger.emergency('1')
  logger.alert('2')
  logger.critical('3')
  logger.error('4')
  logger.warning('5')
  logger.notice('6')
  logger.info('7', { k: 1 })
  logger.debug('8')
  assert.equal(entries.map((e) => [e.level, e.message]), [
    ['emergency', '1'], ['alert', '2'], ['critical', '3'], ['error', '4'],
    ['warning', '5'], ['notice', '6'], ['info', '7'], ['debug', '8'],
  ])
  assert.equal(entries[6]?.context, { k: 1 })
  assert.equal(entries[7]?.context, {})
})

test('makeLogger :: entries below the minimum never reach the sink', () => {
  const { entries, logger } = capture('warning')
  logger.info('no')
  logger.log('notice', 'no')
  logger.log('warning', 'yes')
  logger.critical('yes too')
  assert.equal(entries.map((e) => e.message), ['yes', 'yes too'])
})

test('makeLogger :: exception logs at error level with the error in the context', () => {
  const { entries, logger } = capture()
  const error = new TypeError('bad type')
  logger.exception(error, { clientId: 1 })
  logger.exception(new Error(''))
  logger.exception({ message: 'tagged' })
  logger.exception('a string')
  logger.exception(Object.create(null))
  assert.equal(entries[0], { level: 'error', message: 'bad type', context: { clientId: 1, exception: error } })
  assert.equal(entries.slice(1).map((e) => e.message), ['Error', 'tagged', 'a string', 'unprintable error'])
})

test('silentLogger :: every method is callable and does nothing', () => {
  silentLogger.emergency('x')
  silentLogger.debug('x')
  silentLogger.exception(new Error('x'))
  assert.ok(true)
})

test.run()

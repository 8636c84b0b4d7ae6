import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Logger } from '../../../lib/core/log/logger.js'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import { guardLogger } from '../../../lib/engine/options/guard-logger.js'

const broken = (): { logger: Logger; calls: string[] } => {
  const calls: string[] = []
  const logger = makeLogger((entry) => {
    calls.push(`${entry.level}:${entry.message}`)
    throw new Error('sink down')
  })
  return { logger, calls }
}

test('guardLogger :: passes every call through and swallows a failing sink', () => {
  const { logger, calls } = broken()
  const safe = guardLogger(logger)
  for (const level of ['emergency', 'alert', 'critical', 'error', 'warning', 'notice', 'info', 'debug'] as const) safe[level](`m-${level}`)
  safe.log('info', 'via log')
  safe.exception(new Error('boom'))
  assert.is(calls.length, 10)
  assert.is(calls[0], 'emergency:m-emergency')
  assert.is(calls[8], 'info:via log')
  assert.match(calls[9] ?? '', /^error:/)
})

test.run()

/**
 * `maxConnections` against the open-file limit (lib/engine/options/fd-limit.ts), alone and in
 * the engine: the default follows the limit the platform reads, an explicit value above it is
 * kept with a start-up warning, an unknown limit changes nothing. Portable (Node, Bun, Deno).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import type { LogEntry } from '../../../lib/core/log/logger.js'
import { LogLevel } from '../../../lib/core/log/log-level.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import { connectionsFor, fdReserve, fitToFdLimit } from '../../../lib/engine/options/fd-limit.js'
import { DEFAULT_LIMITS } from '../../../lib/engine/options/limits.js'
import { memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

test('fdReserve / connectionsFor :: 1 % of the limit kept, at least 64', () => {
  assert.is(fdReserve(1024), 64)
  assert.is(connectionsFor(1024), 960)
  assert.is(connectionsFor(20_000), 19_800)
  assert.is(connectionsFor(1_048_576), 1_048_576 - 10_486)
  assert.is(connectionsFor(10), 1)
})

test('fitToFdLimit :: the default follows the limit; an unknown limit changes nothing', () => {
  assert.is(fitToFdLimit(DEFAULT_LIMITS, false, 20_000).limits.maxConnections, 19_800)
  assert.is(fitToFdLimit(DEFAULT_LIMITS, false, 20_000).warning, undefined)
  assert.is(fitToFdLimit(DEFAULT_LIMITS, false, undefined).limits, DEFAULT_LIMITS)
  assert.is(fitToFdLimit(DEFAULT_LIMITS, true, undefined).warning, undefined)
})

test('fitToFdLimit :: an explicit maxConnections above the limit is kept, with a warning naming both', () => {
  const fit = fitToFdLimit({ ...DEFAULT_LIMITS, maxConnections: 50_000 }, true, 20_000)
  assert.is(fit.limits.maxConnections, 50_000)
  assert.match(fit.warning ?? '', /maxConnections 50000 is above what the open-file limit 20000 allows \(19800/)
  assert.is(fitToFdLimit({ ...DEFAULT_LIMITS, maxConnections: 19_800 }, true, 20_000).warning, undefined)
})

const engineWith = (fdLimit: number | undefined, maxConnections?: number) => {
  const entries: LogEntry[] = []
  const engine = createEngine(
    { logger: makeLogger((entry) => void entries.push(entry)), ...(maxConnections === undefined ? {} : { limits: { maxConnections } }) },
    { ...memoryPlatform<MemorySocket>(), openFileLimit: () => fdLimit },
  )
  return { engine, warnings: entries.filter((e) => e.level === LogLevel.WARNING) }
}

test('createEngine :: maxConnections defaults to what the platform\'s open-file limit allows', async () => {
  const { engine, warnings } = engineWith(1024)
  assert.is(engine.options.limits.maxConnections, 960)
  assert.equal(warnings, [])
  await engine.handle.close()
  const unknown = engineWith(undefined)
  assert.is(unknown.engine.options.limits.maxConnections, DEFAULT_LIMITS.maxConnections)
  await unknown.engine.handle.close()
})

test('createEngine :: a maxConnections above the open-file limit warns at start-up', async () => {
  const { engine, warnings } = engineWith(1024, 5000)
  assert.is(engine.options.limits.maxConnections, 5000)
  assert.is(warnings.length, 1)
  assert.match(warnings[0]?.message ?? '', /open-file limit 1024/)
  await engine.handle.close()
})

test.run()

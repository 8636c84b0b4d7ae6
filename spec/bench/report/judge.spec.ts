import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { advantage, describeTarget, judge, outOfReach, ratio, requiredValue } from '../../../bench/report/judge.js'

const atLeast2 = { _tag: 'AtLeastTimes', times: 2 } as const
const atMostHalf = { _tag: 'AtMostTimes', times: 0.5 } as const
const atMost3 = { _tag: 'AtMostValue', value: 3 } as const
const report = { _tag: 'ReportOnly' } as const

test('judge :: at least N times the reference', () => {
  assert.is(judge(atLeast2, 80_000, 40_000), 'met')
  assert.is(judge(atLeast2, 79_999, 40_000), 'not met')
  assert.is(judge(atLeast2, 80_000, Number.NaN), 'n/a')
})

test('judge :: at most N times the reference (a time)', () => {
  assert.is(judge(atMostHalf, 70, 140), 'met')
  assert.is(judge(atMostHalf, 71, 140), 'not met')
  assert.is(judge(atMostHalf, 70, 0), 'n/a')
})

test('judge :: an absolute ceiling, report-only, and a missing twinport', () => {
  assert.is(judge(atMost3, 2.9, 6.2), 'met')
  assert.is(judge(atMost3, 3.1, 6.2), 'not met')
  assert.is(judge(report, 1, 1), 'n/a')
  assert.is(judge(atLeast2, Number.NaN, 1), 'n/a')
})

test('advantage :: above 1 is better in both directions', () => {
  assert.is(advantage(200, 100, true), 2)
  assert.is(advantage(50, 100, false), 2)
  assert.ok(Number.isNaN(ratio(1, 0)))
})

test('requiredValue :: the figure a target asks of the subject', () => {
  assert.is(requiredValue(atLeast2, 10), 20)
  assert.is(requiredValue(atMostHalf, 10), 5)
  assert.is(requiredValue(atMost3, 6), 3)
  assert.ok(Number.isNaN(requiredValue(report, 6)))
})

test('describeTarget :: in words', () => {
  assert.is(describeTarget(atLeast2, 'node:http', 'req/s'), '≥ 2× node:http')
  assert.is(describeTarget(atMostHalf, 'ws', 'ms'), '≤ 0.5× ws')
  assert.is(describeTarget(atMost3, 'ws', 'KiB'), '≤ 3 KiB')
  assert.is(describeTarget(report, 'ws', 'ms'), 'report, beside ws')
})

test.run()

test('outOfReach :: a target not met is out of reach when the ceiling misses it too or the load generator would need more than its core', () => {
  const atLeast = { _tag: 'AtLeastTimes', times: 1.5 } as const
  const reach = { ceilingRatio: 1.2, ceilingVerdict: 'not met', loadCpuUs: 8 } as const
  assert.is(outOfReach(atLeast, 'not met', 100_000, reach, 'raw Bun.listen'),
    'raw Bun.listen itself reaches 1.20×; the load generator would need 1.20 cores (it has one)')
  assert.is(outOfReach(atLeast, 'not met', 100_000, { ...reach, ceilingVerdict: 'met', ceilingRatio: 1.6, loadCpuUs: 6 }, 'raw Bun.listen'), undefined)
  assert.is(outOfReach(atLeast, 'not met', 100_000, { ...reach, loadCpuUs: 6 }, 'raw Bun.listen'), 'raw Bun.listen itself reaches 1.20×')
  assert.is(outOfReach(atLeast, 'met', 100_000, reach, 'raw Bun.listen'), undefined)
  // A time target asks no throughput of the load generator.
  assert.is(outOfReach({ _tag: 'AtMostTimes', times: 0.5 }, 'not met', 147, { ceilingRatio: 0.73, ceilingVerdict: 'not met', loadCpuUs: Number.NaN }, 'raw Bun.listen'),
    'raw Bun.listen itself reaches 0.73×')
})

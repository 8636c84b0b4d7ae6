import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { childrenCpuTicks, machineTicks, parseMachineStat, parseProcStat, parseSchedStat, parseVmRss, processCpuTicks, processRssBytes, threadIds, threadSchedTimes } from '../../../bench/load/proc.js'

const STAT = '4242 (node (bench) x) S 1 4242 4242 0 -1 4194560 9000 0 0 0 120 35 7 3 20 0 11 0 5000 1000000 20000'

test('parseProcStat :: utime + stime after a command name holding spaces and parens', () => {
  assert.is(parseProcStat(STAT), 155)
})

test('parseProcStat :: cutime + cstime with first = 16', () => {
  assert.is(parseProcStat(STAT, 16), 10)
})

test('parseProcStat :: undefined for text that is not a stat line', () => {
  assert.is(parseProcStat(''), undefined)
  assert.is(parseProcStat('1 (x) S 1 2'), undefined)
})

test('parseVmRss :: kB to bytes; undefined without the line', () => {
  assert.is(parseVmRss('Name:\tnode\nVmRSS:\t   51200 kB\nThreads: 7\n'), 51200 * 1024)
  assert.is(parseVmRss('Name:\tnode\n'), undefined)
})

test('parseMachineStat :: busy excludes idle and iowait, total includes them', () => {
  const text = 'cpu  100 5 50 800 20 3 2 1 9 0\ncpu0 50 2 25 400 10 1 1 0 0 0\n'
  assert.equal(parseMachineStat(text), { busy: 161, total: 981 })
  assert.is(parseMachineStat('intr 1 2 3\n'), undefined)
  assert.is(parseMachineStat('cpu  1 2\n'), undefined)
})

test('parseSchedStat :: time on a CPU and time waiting for one, in ns; undefined for other text', () => {
  assert.equal(parseSchedStat('1234567 89012 345\n'), { onCpuNs: 1234567, waitingNs: 89012 })
  assert.is(parseSchedStat(''), undefined)
  assert.is(parseSchedStat('1 2\n'), undefined)
})

test('readers :: read this very process', () => {
  assert.ok((processCpuTicks(process.pid) ?? -1) >= 0)
  assert.ok((processRssBytes(process.pid) ?? 0) > 0)
  assert.ok(childrenCpuTicks() >= 0)
  assert.ok(machineTicks().total > 0)
  assert.is(processCpuTicks(-1), undefined)
  assert.ok(threadIds(process.pid).includes(process.pid))
  assert.equal(threadIds(-1), [])
  assert.is(threadSchedTimes(-1), undefined)
})

test.run()

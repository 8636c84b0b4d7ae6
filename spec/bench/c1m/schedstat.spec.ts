/**
 * bench/c1m/schedstat.ts (the line's parser is bench/load/proc.ts', specced there): per-thread growth summed (threads that
 * come and go), and this process's own threads read from /proc where Linux has them.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { addSched, NO_SCHED, readTaskSched, schedDelta } from '../../../bench/c1m/schedstat.js'

test('schedDelta :: each thread\'s growth, a new thread from zero, an ended one dropped without a negative', () => {
  const before = new Map([[1, { cpuNs: 10, waitNs: 5 }], [2, { cpuNs: 100, waitNs: 100 }]])
  const after = new Map([[1, { cpuNs: 30, waitNs: 9 }], [3, { cpuNs: 4, waitNs: 1 }]])
  assert.equal(schedDelta(before, after), { cpuNs: 24, waitNs: 5 })
  assert.equal(schedDelta(after, after), NO_SCHED)
  assert.equal(addSched({ cpuNs: 1, waitNs: 2 }, { cpuNs: 3, waitNs: 4 }), { cpuNs: 4, waitNs: 6 })
})

test('readTaskSched :: this process\'s main thread among its threads, nothing for a process that is not there', () => {
  const all = readTaskSched(process.pid)
  if (all.size === 0) {
    console.log('  (no /proc/<pid>/task/<tid>/schedstat here: reading skipped)')
    return
  }
  assert.ok(all.has(process.pid))
  const main = readTaskSched(process.pid, true)
  assert.equal([...main.keys()], [process.pid])
  assert.is(readTaskSched(2 ** 22 + 12345).size, 0)
})

test.run()

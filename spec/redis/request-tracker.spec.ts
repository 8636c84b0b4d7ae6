import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Timers } from '../../lib/engine/platform.js'
import { RequestTracker } from '../../lib/redis/request-tracker.js'

// Timers the test fires by hand.
const manual = () => {
  const pending = new Map<number, () => void>()
  let next = 1
  const timers: Timers = {
    now: () => 0,
    setTimeout: (run) => {
      pending.set(next, run)
      return next++
    },
    clearTimeout: (id) => void pending.delete(id as number),
    setInterval: () => 0,
    clearInterval: () => undefined,
    afterIo: (run) => run(),
  }
  return { timers, fire: () => [...pending.values()].forEach((run) => run()), pending }
}

test('RequestTracker :: settles as soon as every expected node answered', async () => {
  const { timers, pending } = manual()
  const t = new RequestTracker(timers)
  const { id, answers } = t.open(['b', 'c'], 100)
  t.reply(id, 'b', 1)
  t.reply(id, 'b', 'again') // a second answer from the same node is ignored
  t.reply(id, 'c', 2)
  assert.equal(await answers, { replies: [{ node: 'b', body: 1 }, { node: 'c', body: 2 }], missingNodes: [] })
  assert.is(pending.size, 0)
  t.reply(id, 'c', 3) // too late: nothing happens
})

test('RequestTracker :: the time bound settles with the nodes that did not answer; an unexpected node\'s answer is kept', async () => {
  const { timers, fire } = manual()
  const t = new RequestTracker(timers)
  const { id, answers } = t.open(['b', 'c'], 100)
  t.reply(id, 'd', 'newcomer')
  t.reply(id, 'b', 1)
  fire()
  assert.equal(await answers, { replies: [{ node: 'd', body: 'newcomer' }, { node: 'b', body: 1 }], missingNodes: ['c'] })
})

test('RequestTracker :: ids differ; settleAll ends every request', async () => {
  const { timers } = manual()
  const t = new RequestTracker(timers)
  const one = t.open(['b'], 100)
  const two = t.open(['c'], 100)
  assert.is.not(one.id, two.id)
  t.settleAll()
  assert.equal(await Promise.all([one.answers, two.answers]), [
    { replies: [], missingNodes: ['b'] },
    { replies: [], missingNodes: ['c'] },
  ])
})

test.run()

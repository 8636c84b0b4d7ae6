import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { composeWs } from '../../../lib/core/route/compose-ws.js'
import { ack, noReply } from '../../../lib/core/route/event-outcome.js'
import { recordingContext } from '../route/support.js'

test('composeWs :: wraps the target; a layer can rewrite the event', async () => {
  const { ctx } = recordingContext(1)
  const run = composeWs([(m, next, c) => next({ ...m, data: [m.data, c.clientId] })])
  const out = await run({ event: 'e', data: 'x', id: 1 }, ctx, (m) => ack(m.id ?? 0, m.data))
  assert.equal(out, { _tag: 'Ack', id: 1, value: ['x', 1] })
})

test('composeWs :: a layer can swallow an event', async () => {
  const { ctx } = recordingContext()
  const out = await composeWs([() => noReply])({ event: 'e', data: null }, ctx, () => ack(1, 'never'))
  assert.equal(out, { _tag: 'NoReply' })
})

test.run()

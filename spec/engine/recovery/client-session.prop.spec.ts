/**
 * `ClientSession`'s remembered answers against a model: a Map kept in the order of the last
 * `remember` (delete, then set) whose first key goes past the bound. Any sequence of
 * remember / forget / answerOf on a few ids gives the same answers in both.
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { ClientSession, PENDING } from '../../../lib/engine/recovery/client-session.js'
import type { EventId } from '../../../lib/core/ws/event.js'

type Op = readonly ['remember', EventId, string] | readonly ['forget', EventId] | readonly ['answerOf', EventId]

const id = fc.oneof(fc.integer({ min: 1, max: 8 }), fc.constantFrom('a', 'b', '1'))
const op: fc.Arbitrary<Op> = fc.oneof(
  fc.tuple(fc.constant('remember' as const), id, fc.constantFrom(PENDING, 'A', 'B')),
  fc.tuple(fc.constant('forget' as const), id),
  fc.tuple(fc.constant('answerOf' as const), id),
)

test('ClientSession :: remembered answers are those of a Map in last-remembered order, bounded by maxAnswers', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 5 }), fc.array(op, { minLength: 20, maxLength: 80 }), (maxAnswers, ops) => {
      const s = new ClientSession('sid', 1, { windowMs: 1000, maxMessages: 16, maxAnswers })
      const model = new Map<EventId, string>()
      for (const o of ops) {
        if (o[0] === 'remember') {
          s.remember(o[1], o[2])
          model.delete(o[1])
          model.set(o[1], o[2])
          if (model.size > maxAnswers) model.delete(model.keys().next().value as EventId)
        } else if (o[0] === 'forget') {
          s.forget(o[1])
          model.delete(o[1])
        } else assert.is(s.answerOf(o[1]), model.get(o[1]))
      }
      for (const k of [1, 2, 3, 4, 5, 6, 7, 8, 'a', 'b', '1']) assert.is(s.answerOf(k), model.get(k), String(k))
    }),
  )
})

test.run()

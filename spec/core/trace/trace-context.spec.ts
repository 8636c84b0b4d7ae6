import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatTraceparent, parseTraceparent, traceContextOf, traceContextOfHeaders } from '../../../lib/core/trace/trace-context.js'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const SPAN = '00f067aa0ba902b7'
const TP = `00-${TRACE}-${SPAN}-01`

test('parseTraceparent :: the W3C example, and formatTraceparent writes it back', () => {
  const parsed = parseTraceparent(TP)
  assert.equal(parsed, { traceId: TRACE, spanId: SPAN, flags: 1 })
  assert.is(formatTraceparent(parsed as NonNullable<typeof parsed>), TP)
  assert.is(formatTraceparent({ traceId: TRACE, spanId: SPAN, flags: 0 }), `00-${TRACE}-${SPAN}-00`)
})

test('parseTraceparent :: what W3C Trace Context says to ignore is undefined', () => {
  const bad = [
    '',
    `00-${TRACE}-${SPAN}`,
    `00-${TRACE.toUpperCase()}-${SPAN}-01`,
    `00-${'0'.repeat(32)}-${SPAN}-01`,
    `00-${TRACE}-${'0'.repeat(16)}-01`,
    `ff-${TRACE}-${SPAN}-01`,
    `00-${TRACE}-${SPAN}-01-extra`,
    `0-${TRACE}-${SPAN}-01`,
  ]
  for (const value of bad) assert.is(parseTraceparent(value), undefined, value)
})

test('parseTraceparent :: a later version may carry more fields', () => {
  assert.equal(parseTraceparent(`01-${TRACE}-${SPAN}-01-what-comes-next`), { traceId: TRACE, spanId: SPAN, flags: 1 })
})

test('traceContextOf :: a valid traceparent with its tracestate; a bad tracestate is dropped, a bad traceparent is no context', () => {
  assert.equal(traceContextOf(TP, 'a=1,b=2'), { traceparent: TP, tracestate: 'a=1,b=2' })
  assert.equal(traceContextOf(` ${TP} `, undefined), { traceparent: TP })
  assert.equal(traceContextOf(TP, 7), { traceparent: TP })
  assert.equal(traceContextOf(TP, 'x'.repeat(9000)), { traceparent: TP })
  assert.is(traceContextOf(42, 'a=1'), undefined)
  assert.is(traceContextOf('00-nope', 'a=1'), undefined)
})

test('traceContextOfHeaders :: names in any case, tracestate lines joined; two traceparent lines are none', () => {
  assert.equal(traceContextOfHeaders([['Host', 'x'], ['TraceParent', TP], ['tracestate', 'a=1'], ['TRACESTATE', 'b=2']]), { traceparent: TP, tracestate: 'a=1,b=2' })
  assert.is(traceContextOfHeaders([['Host', 'x']]), undefined)
  assert.is(traceContextOfHeaders([['traceparent', TP], ['traceparent', TP]]), undefined)
})

test.run()

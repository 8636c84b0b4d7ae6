/**
 * The typed client's `traceparent` option (issue 25): sent on the upgrade as the query
 * parameter `traceparent` (a browser WebSocket sends no headers), a tracing server makes it the
 * parent of the connection's events that carry no trace of their own; a function gives one per
 * attempt. Against a real Node server with `otelInstrumentation` and the SDK's in-memory exporter.
 */
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import { socketOn } from '../../lib/index.js'
import { otelInstrumentation } from '../../lib/otel/index.js'
import { upgradeTrace } from '../../lib/core/http/upgrade-trace.js'
import { WebSocketImpl } from '../support/client.js'
import { eventually, startServer } from '../support/server.js'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE}-${PARENT}-01`

const test = suite('connect :: traceparent')

const tracingServer = async () => {
  const spans = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  const queries: string[] = []
  const { server, url } = await startServer({
    instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }),
    routes: [
      socketOn('work', (data, ctx) => {
        queries.push(ctx.request.rawQuery)
        return data
      }),
    ],
  })
  const spansOf = (name: string): readonly ReadableSpan[] => spans.getFinishedSpans().filter((s) => s.name === name)
  return { server, url, spansOf, queries }
}

test('upgradeTrace :: the headers first, else the query parameters; an invalid value is none', () => {
  assert.equal(upgradeTrace({ headers: [], rawQuery: `a=1&traceparent=${TRACEPARENT}&tracestate=congo%3Dt61` }), { traceparent: TRACEPARENT, tracestate: 'congo=t61' })
  assert.equal(upgradeTrace({ headers: [['Traceparent', TRACEPARENT]], rawQuery: 'traceparent=nope' }), { traceparent: TRACEPARENT })
  assert.is(upgradeTrace({ headers: [], rawQuery: 'traceparent=nope' }), undefined)
  assert.is(upgradeTrace({ headers: [], rawQuery: 'tp_r=1' }), undefined)
})

test('a string: on the upgrade URL; the events of the connection continue that trace', async () => {
  const { server, url, spansOf, queries } = await tracingServer()
  const client = connect(url, { WebSocket: WebSocketImpl, reconnect: false, traceparent: TRACEPARENT })
  try {
    assert.is(await client.request('work', 3), 3)
    assert.ok(queries[0]?.includes(`traceparent=${encodeURIComponent(TRACEPARENT)}`), queries[0])
    await eventually(() => spansOf('process work').length === 1, 2000, 'the event\'s span')
    const span = spansOf('process work')[0] as ReadableSpan
    assert.equal([span.spanContext().traceId, span.parentSpanContext?.spanId], [TRACE, PARENT])
  } finally {
    client.close()
    await server.close()
  }
})

test('a function: asked at each attempt; undefined sends none (the event is a root span)', async () => {
  const { server, url, spansOf, queries } = await tracingServer()
  let asked = 0
  const client = connect(url, { WebSocket: WebSocketImpl, reconnect: false, sessions: false, traceparent: () => void asked++ })
  try {
    assert.is(await client.request('work', 1), 1)
    assert.is(asked, 1)
    assert.not.ok(queries[0]?.includes('traceparent'))
    await eventually(() => spansOf('process work').length === 1, 2000, 'the event\'s span')
    assert.is(spansOf('process work')[0]?.parentSpanContext, undefined)
  } finally {
    client.close()
    await server.close()
  }
})

test.run()

/**
 * `twinport/otel` against the OpenTelemetry SDK's in-memory exporters, on a real Node server
 * with real clients (`fetch`, `ws`): a span per HTTP request and per event dispatch, their
 * parents read from the `traceparent` header and the envelope's `traceparent` field, handlers'
 * spans nested through `req.trace` / `ctx.trace`, nothing left open; the metrics registry
 * through the Meter API; a server without a tracer ignores the envelope's trace fields.
 */
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api'
import { AggregationTemporality, DataPointType, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics'
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute, socketOn } from '../../lib/index.js'
import { otelContext, otelInstrumentation } from '../../lib/otel/index.js'
import { eventually, openClient, startServer } from '../support/server.js'

const PARENT_TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT_SPAN = '00f067aa0ba902b7'
const TRACEPARENT = `00-${PARENT_TRACE}-${PARENT_SPAN}-01`

const setup = () => {
  const spans = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE)
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 60_000 })
  const meterProvider = new MeterProvider({ readers: [reader] })
  const app = tracerProvider.getTracer('app')
  return { spans, tracerProvider, meterProvider, exporter, reader, app }
}

const named = (spans: readonly ReadableSpan[], name: string): ReadableSpan => {
  const found = spans.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`)
  return found
}
const parentOf = (span: ReadableSpan): string | undefined => span.parentSpanContext?.spanId

const Otel = suite('otelInstrumentation')

Otel('an HTTP request: a SERVER span named after its route, child of the traceparent header; the handler\'s span nests under it', async () => {
  const { spans, tracerProvider, app } = setup()
  const instrumentation = otelInstrumentation({ tracerProvider, meterProvider: false })
  const { server, url } = await startServer({
    instrumentation,
    routes: [
      httpRoute('GET', '/users/{id}', async (req) => {
        assert.ok(req.trace !== undefined)
        const span = app.startSpan('load user', {}, otelContext(req.trace))
        await new Promise((resolve) => setTimeout(resolve, 5))
        span.end()
        return { id: req.params.id }
      }),
      httpRoute('GET', '/fail', () => {
        throw new Error('boom')
      }),
    ],
  })
  try {
    const res = await fetch(`${url}/users/7`, { headers: { traceparent: TRACEPARENT, tracestate: 'congo=t61rcWkgMzE' } })
    assert.equal(await res.json(), { id: '7' })
    assert.is((await fetch(`${url}/fail`)).status, 500)
    await eventually(() => spans.getFinishedSpans().length === 3, 2000, 'three spans')
    const all = spans.getFinishedSpans()
    const request = named(all, 'GET /users/{id}')
    assert.is(request.kind, SpanKind.SERVER)
    assert.is(request.spanContext().traceId, PARENT_TRACE)
    assert.is(parentOf(request), PARENT_SPAN)
    assert.is(request.spanContext().traceState?.get('congo'), 't61rcWkgMzE')
    assert.equal(
      [request.attributes['http.request.method'], request.attributes['http.route'], request.attributes['http.response.status_code'], request.attributes['url.path']],
      ['GET', '/users/{id}', 200, '/users/7'],
    )
    const own = named(all, 'load user')
    assert.is(own.spanContext().traceId, PARENT_TRACE)
    assert.is(parentOf(own), request.spanContext().spanId)
    const failed = named(all, 'GET /fail')
    assert.is(failed.parentSpanContext, undefined)
    assert.is(failed.status.code, SpanStatusCode.ERROR)
    assert.is(failed.attributes['error.type'], '500')
    assert.is(instrumentation.openSpans(), 0)
  } finally {
    await server.close()
  }
})

Otel('an HTTP request with a bad traceparent is a new trace', async () => {
  const { spans, tracerProvider } = setup()
  const { server, url } = await startServer({ instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }), routes: [httpRoute('GET', '/a', () => 'a')] })
  try {
    await (await fetch(`${url}/a`, { headers: { traceparent: `00-${'0'.repeat(32)}-${PARENT_SPAN}-01` } })).text()
    await eventually(() => spans.getFinishedSpans().length === 1)
    const span = spans.getFinishedSpans()[0] as ReadableSpan
    assert.is(span.parentSpanContext, undefined)
    assert.is.not(span.spanContext().traceId, '0'.repeat(32))
  } finally {
    await server.close()
  }
})

Otel('WebSocket events: a CONSUMER span each, child of the envelope\'s traceparent; concurrent events each hand their own span to the handler', async () => {
  const { spans, tracerProvider, app } = setup()
  const instrumentation = otelInstrumentation({ tracerProvider, meterProvider: false })
  const { server, port } = await startServer({
    instrumentation,
    routes: [
      socketOn('work', async (data, ctx) => {
        const seen = ctx.trace?.traceparent
        await new Promise((resolve) => setTimeout(resolve, data === 'slow' ? 20 : 1))
        const span = app.startSpan(`step ${String(data)}`, {}, otelContext(ctx.trace))
        span.end()
        // After the await, still this event's span (a second event ran meanwhile).
        return ctx.trace?.traceparent === seen
      }),
      socketOn('bad', () => {
        throw new Error('nope')
      }),
    ],
  })
  try {
    const client = await openClient(port)
    const other = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01'
    client.ws.send(JSON.stringify({ event: 'work', data: 'slow', id: 1, traceparent: TRACEPARENT }))
    client.ws.send(JSON.stringify({ event: 'work', data: 'fast', id: 2, traceparent: other }))
    client.ws.send(JSON.stringify({ event: 'bad', id: 3 }))
    const answers = [await client.nextJson(), await client.nextJson(), await client.nextJson()]
    assert.equal(answers.filter((a) => a.event === 'ack').map((a) => a.data), [true, true])
    await eventually(() => spans.getFinishedSpans().length === 5, 2000, 'five spans')
    const all = spans.getFinishedSpans()
    const works = all.filter((s) => s.name === 'process work')
    assert.is(works.length, 2)
    for (const span of works) assert.is(span.kind, SpanKind.CONSUMER)
    const slow = works.find((s) => s.spanContext().traceId === PARENT_TRACE) as ReadableSpan
    const fast = works.find((s) => s.spanContext().traceId === '0af7651916cd43dd8448eb211c80319c') as ReadableSpan
    assert.is(parentOf(slow), PARENT_SPAN)
    assert.is(parentOf(fast), 'b7ad6b7169203331')
    assert.is(parentOf(named(all, 'step slow')), slow.spanContext().spanId)
    assert.is(parentOf(named(all, 'step fast')), fast.spanContext().spanId)
    assert.equal([slow.attributes['messaging.destination.name'], slow.attributes['twinport.event.outcome']], ['work', 'ack'])
    const bad = named(all, 'process bad')
    assert.equal([bad.attributes['error.type'], bad.status.code], ['handler_error', SpanStatusCode.ERROR])
    assert.is(instrumentation.openSpans(), 0)
    client.ws.close()
  } finally {
    await server.close()
  }
})

Otel('without a tracer the envelope\'s trace fields are accepted and ignored; ctx.trace and req.trace are undefined', async () => {
  const { server, port, url } = await startServer({
    routes: [socketOn('look', (_data, ctx) => ctx.trace === undefined), httpRoute('GET', '/look', (req) => ({ none: req.trace === undefined }))],
  })
  try {
    const client = await openClient(port)
    client.ws.send(JSON.stringify({ event: 'look', id: 1, traceparent: TRACEPARENT, tracestate: 'a=b' }))
    assert.equal(await client.nextJson(), { event: 'ack', id: 1, data: true })
    client.ws.send(JSON.stringify({ event: 'look', id: 2, traceparent: 42 }))
    assert.equal(await client.nextJson(), { event: 'ack', id: 2, data: true })
    assert.equal(await (await fetch(`${url}/look`, { headers: { traceparent: TRACEPARENT } })).json(), { none: true })
    client.ws.close()
  } finally {
    await server.close()
  }
})

Otel('the metrics registry through the Meter API: the request duration histogram, counters and gauges, with the node attribute', async () => {
  const { tracerProvider, meterProvider, exporter, reader } = setup()
  const { server, url, port } = await startServer({
    metrics: { node: 'n1' },
    instrumentation: otelInstrumentation({ tracerProvider, meterProvider }),
    routes: [httpRoute('GET', '/a', () => 'a'), socketOn('hi', () => 'yo')],
  })
  try {
    for (let i = 0; i < 3; i++) await (await fetch(`${url}/a`)).text()
    const client = await openClient(port)
    client.emit('hi', null, 1)
    await client.nextJson()
    await reader.forceFlush()
    const metrics = (exporter.getMetrics().at(-1)?.scopeMetrics ?? []).flatMap((s) => s.metrics)
    const byName = (name: string) => {
      const found = metrics.find((m) => m.descriptor.name === name)
      if (found === undefined) throw new Error(`no metric ${name} among ${metrics.map((m) => m.descriptor.name).join(', ')}`)
      return found
    }
    const duration = byName('http.server.request.duration')
    assert.is(duration.dataPointType, DataPointType.HISTOGRAM)
    assert.is(duration.descriptor.unit, 's')
    const point = duration.dataPoints.find((p) => p.attributes['http.route'] === '/a')
    assert.ok(point !== undefined)
    assert.is((point.value as { count: number }).count, 3)
    assert.equal([point.attributes['http.request.method'], point.attributes['http.response.status_code'], point.attributes['node']], ['GET', '2xx', 'n1'])
    const received = byName('twinport.messages.received')
    assert.is(received.dataPoints.find((p) => p.attributes['event'] === 'hi')?.value, 1)
    const open = byName('twinport.server.open_connections')
    assert.is(open.dataPoints.find((p) => p.attributes['network.transport'] === 'websocket')?.value, 1)
    client.ws.close()
  } finally {
    await server.close()
    await meterProvider.shutdown()
  }
})

Otel('the global providers are used when none is given; spans of a no-op provider hand handlers no trace', async () => {
  assert.is(trace.getTracerProvider().getTracer('x').startSpan('y').spanContext().traceId, '0'.repeat(32))
  const { server, url } = await startServer({ instrumentation: otelInstrumentation(), routes: [httpRoute('GET', '/t', (req) => ({ trace: req.trace ?? null }))] })
  try {
    assert.equal(await (await fetch(`${url}/t`)).json(), { trace: null })
    // With a parent, even a no-op tracer continues it (its span carries the parent's context).
    const res = await (await fetch(`${url}/t`, { headers: { traceparent: TRACEPARENT } })).json()
    assert.equal(res, { trace: { traceparent: TRACEPARENT } })
  } finally {
    await server.close()
  }
})

Otel.run()

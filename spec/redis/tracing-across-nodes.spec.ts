/**
 * One trace across two nodes on a real redis-server (DESIGN §7): an HTTP request on node a
 * whose handler emits a server-to-server event with its `req.trace`; node b answers it in a
 * span continuing that trace (the trace context travels in the request across Redis), and b's
 * handler's own span nests under it. Also a WebSocket event on a that queries the cluster's
 * clients with `ctx.trace`. Spans from both nodes go to one in-memory exporter, each node with
 * its own `otelInstrumentation`.
 */
import { SpanKind } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute, socketOn } from '../../lib/index.js'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import { otelContext, otelInstrumentation } from '../../lib/otel/index.js'
import { startRedis } from '../support/redis.js'
import { meshed, redisSuite } from '../support/redis-suite.js'
import { eventually, openClient } from '../support/server.js'

const spans = new InMemorySpanExporter()
const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
const app = tracerProvider.getTracer('app')

const Traced = suite('tracing :: across nodes on Redis')
const shared = redisSuite(Traced, {
  start: startRedis,
  prefix: 'traced',
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 1000 }),
})
Traced.before.each(() => spans.reset())

const named = (all: readonly ReadableSpan[], name: string, kind?: SpanKind): ReadableSpan => {
  const found = all.find((s) => s.name === name && (kind === undefined || s.kind === kind))
  if (found === undefined) throw new Error(`no span ${name} among ${all.map((s) => `${s.name}/${s.kind}`).join(', ')}`)
  return found
}

Traced('an HTTP request on node a, a cluster event answered on node b: one trace, each span the child of the one before', async () => {
  let a: ServerHandle | undefined
  const node = await shared.startNode('a', {}, {
    instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }),
    routes: [httpRoute('POST', '/price', async (req) => ({ replies: (await (a as ServerHandle).cluster.emit('price', 'x', { trace: req.trace })).replies }))],
  })
  a = node.server
  const b = await shared.startNode('b', {}, { instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }) })
  b.server.cluster.on('price', (_data, from, trace) => {
    const span = app.startSpan('compute price', {}, otelContext(trace))
    span.end()
    return { from, traced: trace !== undefined }
  })
  await meshed(node, b)
  const traceparent = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01'
  const res = await fetch(`http://127.0.0.1:${node.port}/price`, { method: 'POST', headers: { traceparent } })
  assert.equal(await res.json(), { replies: [{ node: 'b', data: { from: 'a', traced: true } }] })
  await eventually(() => spans.getFinishedSpans().length === 4, 3000, 'four spans')
  const all = spans.getFinishedSpans()
  const request = named(all, 'POST /price')
  const asked = named(all, 'cluster event price', SpanKind.CLIENT)
  const answered = named(all, 'cluster event price', SpanKind.SERVER)
  const own = named(all, 'compute price')
  for (const span of all) assert.is(span.spanContext().traceId, '4bf92f3577b34da6a3ce929d0e0e4736')
  assert.is(request.parentSpanContext?.spanId, '00f067aa0ba902b7')
  assert.is(asked.parentSpanContext?.spanId, request.spanContext().spanId)
  assert.is(answered.parentSpanContext?.spanId, asked.spanContext().spanId)
  assert.is(own.parentSpanContext?.spanId, answered.spanContext().spanId)
  assert.equal([request.attributes['twinport.node'], asked.attributes['twinport.node'], answered.attributes['twinport.node']], ['a', 'a', 'b'])
  assert.equal([asked.attributes['twinport.cluster.answered'], asked.attributes['twinport.cluster.missing'], answered.attributes['twinport.cluster.from_node']], [1, 0, 'a'])
})

Traced('a WebSocket event on node a counting the cluster\'s clients with ctx.trace: the count query continues the event\'s trace on node b', async () => {
  let a: ServerHandle | undefined
  const node = await shared.startNode('a', {}, {
    instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }),
    routes: [socketOn('count', async (_data, ctx) => (await (a as ServerHandle).cluster.count(undefined, { trace: ctx.trace })).count)],
  })
  a = node.server
  const b = await shared.startNode('b', {}, { instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }) })
  await meshed(node, b)
  const client = await openClient(node.port)
  const far = await openClient(b.port)
  client.ws.send(JSON.stringify({ event: 'count', id: 1, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }))
  assert.equal(await client.nextJson(), { event: 'ack', id: 1, data: 2 })
  await eventually(() => spans.getFinishedSpans().length === 3, 3000, 'three spans')
  const all = spans.getFinishedSpans()
  const event = named(all, 'process count')
  const asked = named(all, 'cluster count', SpanKind.CLIENT)
  const answered = named(all, 'cluster count', SpanKind.SERVER)
  for (const span of all) assert.is(span.spanContext().traceId, '0af7651916cd43dd8448eb211c80319c')
  assert.is(asked.parentSpanContext?.spanId, event.spanContext().spanId)
  assert.is(answered.parentSpanContext?.spanId, asked.spanContext().spanId)
  client.ws.close()
  far.ws.close()
})

Traced.run()

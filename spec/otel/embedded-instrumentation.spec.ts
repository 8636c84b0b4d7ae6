/**
 * Embedded twinport is instrumented as `runServer` is (issue 25): a request answered through
 * `toFetch` or through `attach` (a real `node:http` server) is counted in the server's metrics
 * (`http.server.request.duration` with its route template and status class, read back through
 * `metricsRoute`), and with `otelInstrumentation` it gets a SERVER span continuing the
 * `traceparent` it carried, which the handler reaches as `req.trace`. Node only (attach is
 * Node's; the SDK's in-memory exporter).
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { SpanKind } from '@opentelemetry/api'
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute, metricsRoute } from '../../lib/index.js'
import { toFetch } from '../../lib/fetch/index.js'
import { attach } from '../../lib/node/attach.js'
import { otelInstrumentation } from '../../lib/otel/index.js'

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const PARENT = '00f067aa0ba902b7'
const TRACEPARENT = `00-${TRACE}-${PARENT}-01`

// The routes both hosts serve: a handler that says which trace it runs in, and the metrics.
const routes = [
  httpRoute('GET', '/items/{id}', async (req) => {
    await new Promise((resolve) => setTimeout(resolve, 1))
    return { id: req.params.id, trace: req.trace?.traceparent.split('-')[1] ?? null }
  }),
  metricsRoute('/metrics'),
]

const tracing = () => {
  const spans = new InMemorySpanExporter()
  const tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(spans)] })
  return { spans, instrumentation: otelInstrumentation({ tracerProvider, meterProvider: false }) }
}

// The count of `http_server_request_duration_seconds` for the route and status class, from the text.
const countOf = (text: string, route: string, status: string): number | undefined => {
  for (const line of text.split('\n')) {
    if (!line.startsWith('http_server_request_duration_seconds_count{')) continue
    if (line.includes(`http_route="${route}"`) && line.includes(`http_response_status_code="${status}"`) && line.includes('http_request_method="GET"')) return Number(line.split(' ').at(-1))
  }
  return undefined
}

const Embedded = suite('embedded :: metrics and tracing')

Embedded('toFetch: a request is counted under its route template and traced from its traceparent header', async () => {
  const { spans, instrumentation } = tracing()
  const app = toFetch({ routes, instrumentation })
  try {
    const res = await app(new Request('http://localhost/items/9', { headers: { traceparent: TRACEPARENT } }))
    assert.equal(await res.json(), { id: '9', trace: TRACE })
    assert.is((await app(new Request('http://localhost/items/10'))).status, 200)
    assert.is((await app(new Request('http://localhost/nowhere'))).status, 404)
    const text = await (await app(new Request('http://localhost/metrics'))).text()
    assert.is(countOf(text, '/items/{id}', '2xx'), 2)
    assert.is(countOf(text, '', '4xx'), 1)
    const span = spans.getFinishedSpans().find((s) => s.name === 'GET /items/{id}' && s.parentSpanContext?.spanId === PARENT)
    assert.ok(span !== undefined, 'a span continuing the header')
    assert.is(span.kind, SpanKind.SERVER)
    assert.is(span.spanContext().traceId, TRACE)
    assert.is(span.attributes['http.response.status_code'], 200)
    assert.is(instrumentation.openSpans(), 0)
  } finally {
    await app.close()
  }
})

Embedded('attach: a request through the host server is counted and traced as runServer\'s', async () => {
  const { spans, instrumentation } = tracing()
  const server: Server = createServer((_req, res) => res.end('host'))
  const twin = attach(server, { routes, instrumentation, http: true })
  try {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    const res = await fetch(`${url}/items/7`, { headers: { traceparent: TRACEPARENT } })
    assert.equal(await res.json(), { id: '7', trace: TRACE })
    const text = await (await fetch(`${url}/metrics`)).text()
    assert.is(countOf(text, '/items/{id}', '2xx'), 1)
    const span = spans.getFinishedSpans().find((s) => s.name === 'GET /items/{id}')
    assert.ok(span !== undefined, 'the request\'s span')
    assert.equal([span.spanContext().traceId, span.parentSpanContext?.spanId], [TRACE, PARENT])
  } finally {
    await twin.close()
    server.closeAllConnections()
    await new Promise<void>((resolve) => server.close(() => resolve()))
  }
})

Embedded.run()

/**
 * Tracing on the runtime TWINPORT_TARGET names (Node, Bun, Deno), single node: with
 * `otelInstrumentation` and the OpenTelemetry SDK's in-memory exporter in the serving
 * process, an HTTP request with a `traceparent` header and a WebSocket event with the
 * envelope's `traceparent` field each get a span continuing that trace, and the handlers'
 * own spans nest under them.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { serve } from '../support/fixture-server.js'
import { eventually, openClient } from '../support/server.js'
import type { SpanFacts } from './fixtures/tracing.js'

const Tracing = suite('runServer :: tracing')

const TRACE = '4bf92f3577b34da6a3ce929d0e0e4736'
const find = (spans: readonly SpanFacts[], name: string): SpanFacts => {
  const found = spans.find((s) => s.name === name)
  if (found === undefined) throw new Error(`no span ${name} among ${spans.map((s) => s.name).join(', ')}`)
  return found
}

Tracing('an HTTP request and a WebSocket event: spans continuing the incoming traces, the handlers\' spans under them', async () => {
  const { server, url, port } = await serve('tracing', 'main', {})
  try {
    const res = await fetch(`${url}/items/9`, { headers: { traceparent: `00-${TRACE}-00f067aa0ba902b7-01` } })
    assert.equal(await res.json(), { id: '9' })
    const client = await openClient(port)
    client.ws.send(JSON.stringify({ event: 'work', data: 5, id: 1, traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' }))
    assert.equal(await client.nextJson(), { event: 'ack', id: 1, data: 5 })
    client.ws.close()
    let spans: readonly SpanFacts[] = []
    await eventually(async () => (spans = await server.probe('spans')).length === 4, 3000, 'four spans')
    const request = find(spans, 'GET /items/{id}')
    assert.equal([request.traceId, request.parentId, request.attributes['http.response.status_code']], [TRACE, '00f067aa0ba902b7', 200])
    const read = find(spans, 'read item')
    assert.equal([read.traceId, read.parentId], [TRACE, request.spanId])
    const event = find(spans, 'process work')
    assert.equal([event.traceId, event.parentId, event.attributes['twinport.event.outcome']], ['0af7651916cd43dd8448eb211c80319c', 'b7ad6b7169203331', 'ack'])
    assert.is(find(spans, 'do work').parentId, event.spanId)
    assert.is(await server.probe('open'), 0)
  } finally {
    await server.close()
  }
})

Tracing.run()

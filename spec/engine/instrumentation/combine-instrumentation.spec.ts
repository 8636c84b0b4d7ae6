import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { compactRequest } from '../../../lib/core/http/compact-request.js'
import type { HttpRequest } from '../../../lib/core/http/types.js'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import type { ClusterAdapter } from '../../../lib/engine/cluster/cluster-adapter.js'
import { createClusterHandle } from '../../../lib/engine/cluster/cluster-handle.js'
import { inProcessCluster } from '../../../lib/engine/cluster/in-process-cluster.js'
import { combineInstrumentation } from '../../../lib/engine/instrumentation/combine-instrumentation.js'
import { type Instrumentation, NO_INSTRUMENTATION, withTrace } from '../../../lib/engine/instrumentation/instrumentation.js'
import { createNamespaceRegistry } from '../../../lib/engine/registry/namespace-registry.js'

// Records every call with the token it gave or got; its tokens start at `base`.
const recorder = (base: number, tracing: boolean) => {
  const calls: string[] = []
  let next = base
  const instrumentation: Instrumentation = {
    ...NO_INSTRUMENTATION,
    active: true,
    tracing,
    bind: (server) => void calls.push(`bind ${server.node}`),
    requestStarted: (method) => (calls.push(`requestStarted ${method} → ${next}`), next++),
    requestAnswered: (method, route, status, started) => void calls.push(`requestAnswered ${method} ${route} ${status} ${started}`),
    eventStarted: (event, parent) => (calls.push(`eventStarted ${event} ${parent?.traceparent ?? '-'} → ${next}`), next++),
    eventSettled: (event, end, _code, started) => void calls.push(`eventSettled ${event} ${end} ${started}`),
    traceOf: (started) => (tracing ? { traceparent: `00-${'a'.repeat(32)}-${String(started).padStart(16, '0')}-01` } : undefined),
    clusterRequestStarted: (query, parent) => (calls.push(`clusterRequestStarted ${query} ${parent?.traceparent ?? '-'} → ${next}`), next++),
    clusterRequestEnded: (answered, missing, started) => void calls.push(`clusterRequestEnded ${answered} ${missing} ${started}`),
    clusterAnswerStarted: (query, from, parent) => (calls.push(`clusterAnswerStarted ${query} ${from} ${parent?.traceparent ?? '-'} → ${next}`), next++),
    clusterAnswerEnded: (error, started) => void calls.push(`clusterAnswerEnded ${error ?? '-'} ${started}`),
  }
  return { instrumentation, calls }
}

const request = compactRequest({ method: 'GET', path: '/a', rawQuery: '', protocol: 'HTTP/1.1', headers: [], trailers: [], body: new Uint8Array(0), keepAlive: true } as unknown as HttpRequest)

test('combineInstrumentation :: either alone when the other is inactive', () => {
  const { instrumentation } = recorder(0, false)
  assert.is(combineInstrumentation(instrumentation, NO_INSTRUMENTATION), instrumentation)
  assert.is(combineInstrumentation(NO_INSTRUMENTATION, instrumentation), instrumentation)
})

test('combineInstrumentation :: each side gets its own token back; slots are reused; traceOf is the tracer\'s', () => {
  const metrics = recorder(100, false)
  const tracer = recorder(500, true)
  const both = combineInstrumentation(metrics.instrumentation, tracer.instrumentation)
  assert.equal([both.active, both.tracing], [true, true])
  both.bind?.({ registry: undefined, node: 'n' })
  const one = both.requestStarted('GET', 0, request)
  const two = both.requestStarted('POST', 0, request)
  assert.is.not(one, two)
  assert.equal(both.traceOf(two), { traceparent: `00-${'a'.repeat(32)}-0000000000000501-01` })
  both.requestAnswered('GET', '/a', 200, one)
  const three = both.eventStarted('chat', undefined)
  assert.is(three, one, 'the freed slot is used again')
  both.eventSettled('chat', 'ack', undefined, three)
  both.requestAnswered('POST', undefined, 404, two)
  assert.equal(metrics.calls, ['bind n', 'requestStarted GET → 100', 'requestStarted POST → 101', 'requestAnswered GET /a 200 100', 'eventStarted chat - → 102', 'eventSettled chat ack 102', 'requestAnswered POST undefined 404 101'])
  assert.equal(tracer.calls, ['bind n', 'requestStarted GET → 500', 'requestStarted POST → 501', 'requestAnswered GET /a 200 500', 'eventStarted chat - → 502', 'eventSettled chat ack 502', 'requestAnswered POST undefined 404 501'])
})

test('withTrace :: the connection\'s context with the event\'s trace on top; without one, the context itself', () => {
  const ctx = { clientId: 7, get emit() { return (): number => this.clientId } }
  const traced = withTrace(ctx, { traceparent: 'tp' })
  assert.is(withTrace(ctx, undefined), ctx)
  assert.equal([traced.clientId, (traced as { trace?: { traceparent: string } }).trace?.traceparent, traced.emit()], [7, 'tp', 7])
  assert.is((ctx as { trace?: unknown }).trace, undefined)
})

test('cluster handle :: with a tracer, a query carries its span\'s trace in the body, and the answering side continues it', async () => {
  const asker = recorder(10, true)
  const answerer = recorder(20, true)
  let answer: ((body: unknown, from: string) => Promise<unknown>) | undefined
  const adapter: ClusterAdapter = {
    ...inProcessCluster('a'),
    request: async (body) => ({ replies: [{ node: 'b', body: await (answer as NonNullable<typeof answer>)(body, 'a') }], missingNodes: [] }),
  }
  const deps = {
    registry: createNamespaceRegistry(),
    localClients: () => [],
    sendFrame: () => false,
    eventFrame: () => ({ frame: new Uint8Array(0), text: '' }),
    rawFrame: () => new Uint8Array(0),
    disconnect: () => false,
    join: () => false,
    leave: () => false,
    post: () => false,
    logger: makeLogger(() => undefined),
  }
  const a = createClusterHandle({ ...deps, adapter, instrumentation: asker.instrumentation })
  const b = createClusterHandle({ ...deps, adapter: inProcessCluster('b'), instrumentation: answerer.instrumentation })
  answer = b.answer
  const seen: (string | undefined)[] = []
  b.handle.on('ping', (data, _from, trace) => (seen.push(trace?.traceparent), data))
  const parent = { traceparent: `00-${'b'.repeat(32)}-${'c'.repeat(16)}-01` }
  const result = await a.handle.emit('ping', 1, { trace: parent })
  assert.equal(result, { replies: [{ node: 'b', data: 1 }], missingNodes: [] })
  assert.equal(asker.calls, [`clusterRequestStarted event ping ${parent.traceparent} → 10`, 'clusterRequestEnded 1 0 10'])
  assert.equal(answerer.calls, [`clusterAnswerStarted event ping a 00-${'a'.repeat(32)}-0000000000000010-01 → 20`, 'clusterAnswerEnded - 20'])
  assert.equal(seen, [`00-${'a'.repeat(32)}-0000000000000020-01`])
})

test.run()

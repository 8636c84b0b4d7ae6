/**
 * Posts of event-stream clients through embedded hosts (issue 23 with DESIGN §8's embedding),
 * against a real redis-server: the client's stream is on a `runServer` node, its `POST`s reach
 * a node that is twinport attached to a `node:http` server (`attach`) or a fetch handler
 * (`toFetch`), each with its own Redis adapter, which forward them through the cluster to the
 * stream's node as `runServer` does (spec/redis/sse-posts-across-nodes.spec.ts). A post for a
 * session no node holds is 404, and a request id posted twice is dispatched once.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { silentLogger } from '../../lib/index.js'
import { attach } from '../../lib/node/attach.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'
import { redisAdapter, type RedisAdapter } from '../../lib/redis/index.js'
import { startRedis, type RedisServer } from '../support/redis.js'
import { type RedisNode, redisSuite } from '../support/redis-suite.js'
import { delay, eventually } from '../support/server.js'
import { openSse, type SseClient } from '../support/sse-client.js'
import { bumps, recoveryApp } from './fixtures/recovery-app.js'

const Embedded = suite('SSE posts through embedded hosts')
const adapterOptions = (redis: RedisServer) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 500 })
const shared = redisSuite(Embedded, {
  start: startRedis,
  prefix: 'se',
  numbered: true,
  adapter: adapterOptions,
  server: { routes: recoveryApp },
})

const dataOf = (data: string): { event: string; id?: unknown; data: unknown } => JSON.parse(data) as { event: string; id?: unknown; data: unknown }

/** A post as the fallback sends it. */
const postOf = (base: string, sid: string, body: string): Request =>
  new Request(`${base}/events`, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-twinport-session': sid }, body })

/** The embedded node's adapter, on the suite's Redis and the test's prefix, closed after the test. */
const adapterFor = (nodeId: string): RedisAdapter => {
  const adapter = redisAdapter({ ...adapterOptions(shared.redis), nodeId, prefix: shared.prefix })
  shared.defer(() => adapter.close())
  return adapter
}

/** A stream on node `a` (runServer), and its session id, once both nodes see each other. */
const streamOn = async (a: RedisNode, other: RedisAdapter): Promise<{ stream: SseClient; sid: string }> => {
  await other.ready()
  await eventually(() => a.adapter.liveNodes().length === 1 && other.liveNodes().length === 1, 3000, 'the nodes to see each other')
  const stream = await openSse(a.port, '/events')
  shared.defer(() => stream.close())
  await stream.until(1)
  return { stream, sid: (dataOf(stream.events[0]?.data ?? '').data as { sid: string }).sid }
}

/** Posts `shout` and the same `bump` id twice through `send`, and checks what the stream on node a gets. */
const checkForwarded = async (stream: SseClient, send: (body: string, session?: string) => Promise<number>): Promise<void> => {
  assert.is(await send('{"event":"shout","data":{"room":"lobby","n":1}}'), 202)
  await stream.until(2)
  assert.equal(dataOf(stream.events[1]?.data ?? '').data, 1)
  const before = bumps.count
  assert.is(await send('{"event":"bump","id":7}'), 202)
  assert.is(await send('{"event":"bump","id":7}'), 202)
  await stream.until(4)
  await delay(100)
  // Dispatched once, on the stream's node; the retried id got the answer the session kept.
  assert.is(bumps.count, before + 1)
  assert.equal(stream.events.slice(2).map((e) => [dataOf(e.data).event, dataOf(e.data).id, dataOf(e.data).data]), [['ack', 7, before + 1], ['ack', 7, before + 1]])
  assert.is(await send('{"event":"bump"}', 'NoSuchSession0123456789'), 404)
  // Posted for a session no node holds, never dispatched anywhere.
  assert.is(bumps.count, before + 1)
}

Embedded('attach :: a post for a session whose stream another node holds is forwarded there through the cluster', async () => {
  const a = await shared.startNode('a')
  const host: Server = createServer()
  const adapter = adapterFor('b')
  const twin = attach(host, { routes: recoveryApp, http: true, cluster: adapter, logger: silentLogger })
  shared.defer(async () => {
    await twin.close()
    await new Promise<void>((resolve) => host.close(() => resolve()))
  })
  await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(host.address() as AddressInfo).port}`
  const { stream, sid } = await streamOn(a, adapter)
  await checkForwarded(stream, async (body, session = sid) => (await fetch(postOf(base, session, body))).status)
})

Embedded('toFetch :: a post for a session whose stream another node holds is forwarded there through the cluster', async () => {
  const a = await shared.startNode('a')
  const adapter = adapterFor('c')
  const app = toFetch({ routes: recoveryApp, cluster: adapter, logger: silentLogger })
  shared.defer(() => app.close())
  const { stream, sid } = await streamOn(a, adapter)
  await checkForwarded(stream, async (body, session = sid) => (await app(postOf('http://twin.test', session, body))).status)
})

Embedded.run()

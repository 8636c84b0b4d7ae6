/**
 * Posts of event-stream clients on any node (issue 23, "Both directions without WebSocket"),
 * against a real redis-server: two twinport nodes with the Redis adapter; a Server-Sent Events
 * client's stream is on node a and its `POST`s reach node b, which forwards them through the
 * cluster adapter to a (no sticky sessions). A request id posted twice is dispatched once; a
 * session no node's stream holds is 404; and `twinport/client` with `sseFallback` works with its
 * stream on one node and its posts on the other.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import { sseFallback, type StreamFetch } from '../../lib/client/fallback.js'
import { startRedis } from '../support/redis.js'
import { meshed, redisSuite } from '../support/redis-suite.js'
import { delay, eventually } from '../support/server.js'
import { openSse } from '../support/sse-client.js'
import { bumps, recoveryApp } from './fixtures/recovery-app.js'

const Posts = suite('SSE posts across nodes')
const shared = redisSuite(Posts, {
  start: startRedis,
  prefix: 'sp',
  numbered: true,
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 400, requestTimeoutMs: 500 }),
  server: { routes: recoveryApp },
})

const dataOf = (data: string): { event: string; id?: unknown; data: unknown; seq?: number } => JSON.parse(data) as { event: string; id?: unknown; data: unknown; seq?: number }
const post = (port: number, sid: string, body: string): Promise<Response> =>
  fetch(`http://127.0.0.1:${port}/events`, { method: 'POST', headers: { 'content-type': 'text/plain', 'x-twinport-session': sid }, body })

Posts('a post that reaches the node without the stream is forwarded to the node that holds it; one request id is dispatched once', async () => {
  const a = await shared.startNode('a')
  const b = await shared.startNode('b')
  const stream = await openSse(a.port, '/events')
  await stream.until(1)
  const sid = (dataOf(stream.events[0]?.data ?? '').data as { sid: string }).sid
  await meshed(a, b)
  assert.is((await post(b.port, sid, '{"event":"shout","data":{"room":"lobby","n":1}}')).status, 202)
  await stream.until(2)
  assert.equal(dataOf(stream.events[1]?.data ?? '').data, 1)
  const before = bumps.count
  assert.is((await post(b.port, sid, '{"event":"bump","id":7}')).status, 202)
  assert.is((await post(b.port, sid, '{"event":"bump","id":7}')).status, 202)
  await stream.until(4)
  await delay(100)
  // The handler ran once; the retried id got the answer the session kept.
  assert.is(bumps.count, before + 1)
  const acks = stream.events.slice(2).map((e) => dataOf(e.data))
  assert.equal(acks.map((m) => [m.event, m.id, m.data]), [['ack', 7, before + 1], ['ack', 7, before + 1]])
  // No stream of the cluster holds it: 404, from either node.
  assert.is((await post(b.port, 'NoSuchSession0123456789', '{"event":"bump"}')).status, 404)
  assert.is((await post(a.port, 'NoSuchSession0123456789', '{"event":"bump"}')).status, 404)
  stream.close()
})

Posts('twinport/client over the fallback with its stream on node a and its posts on node b: requests, emits and broadcasts', async () => {
  const a = await shared.startNode('a')
  const b = await shared.startNode('b')
  await meshed(a, b)
  const posted: string[] = []
  // A load balancer without stickiness, in miniature: the stream goes to a, every post to b.
  const split: StreamFetch = (url, init) => {
    const to = new URL(url)
    if (init.method === 'POST') {
      to.port = String(b.port)
      posted.push(to.port)
    } else to.port = String(a.port)
    return fetch(to.href, init)
  }
  const client = connect(`http://127.0.0.1:${a.port}/events`, { fallback: sseFallback({ fetch: split, webSocket: false }), timeout: 3000 })
  const heard: unknown[] = []
  client.on('n', (n: unknown) => void heard.push(n))
  try {
    const before = bumps.count
    assert.is(await client.request('bump'), before + 1)
    client.emit('shout', { room: 'lobby', n: 5 })
    await eventually(() => heard.length === 1, 3000, 'its broadcast, from node b through a')
    b.server.broadcast('n', 6, { room: 'lobby' })
    await eventually(() => heard.length === 2, 3000, 'a broadcast of node b')
    assert.equal(heard, [5, 6])
    assert.ok(posted.length >= 2 && posted.every((p) => p === String(b.port)))
    // The event-stream client is a's alone; b only answered posts.
    assert.equal(a.server.clients().filter((c) => c.type !== 'http').map((c) => c.type), ['sse'])
    assert.equal(b.server.clients().filter((c) => c.type !== 'http'), [])
  } finally {
    client.close()
  }
})

Posts.run()

/**
 * The chat demo (examples/chat/) on two nodes sharing a real redis-server: who is online in a
 * room is the framework's presence, so a join's reply on one node lists the members on the
 * other, each node's members get the other node's joins and leaves as `presence:<room>`
 * diffs, and a member gone from one node leaves the list on both.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { chatServerOptions } from '../../examples/chat/chat-server-options.js'
import { type ChatClient, member } from '../examples/chat/chat-client.js'
import { startRedis } from '../support/redis.js'
import { meshed, redisSuite } from '../support/redis-suite.js'

const Chat = suite('chat demo :: who is online, across two nodes on Redis')
const shared = redisSuite(Chat, {
  start: startRedis,
  prefix: 'chatpresence',
  numbered: true,
  adapter: (redis) => ({ url: redis.url, heartbeatIntervalMs: 100, heartbeatTimeoutMs: 500, requestTimeoutMs: 500 }),
})

const chatNode = (id: string) => shared.startNode(id, {}, chatServerOptions({ host: '127.0.0.1', port: 0, graceMs: 0 }))

Chat('a join on node b lists the member on node a; a gets b’s join and leave as presence diffs', async () => {
  const a = await chatNode('a')
  const b = await chatNode('b')
  await meshed(a, b)
  const clients: ChatClient[] = []
  shared.defer(async () => void (await Promise.all(clients.map((c) => c.close()))))
  const ada = await member(a.server, 'ada', 'lobby')
  clients.push(ada)
  // The topic opened on b by its first join asks a for its state: the reply lists ada.
  await b.server.presence('lobby').sync()
  const bob = await member(b.server, 'bob')
  clients.push(bob)
  assert.equal((await bob.request('join', { room: 'lobby' })).members, ['ada', 'bob'])
  const came = await ada.next('presence:lobby', (d) => d.joined.includes('bob'))
  assert.ok(came.joins.some((j: { ref: string }) => j.ref.startsWith('b/')), JSON.stringify(came))
  // Both nodes' lists agree; the notice crossed too (a room broadcast), with the head count of both nodes.
  assert.equal(Object.keys(a.server.presence('lobby').list()).sort(), ['ada', 'bob'])
  assert.equal(await ada.next('joined', (d) => d.name === 'bob'), { room: 'lobby', name: 'bob', members: 2 })
  await bob.close()
  assert.equal((await ada.next('presence:lobby', (d) => d.left.length > 0)).left, ['bob'])
  assert.equal(Object.keys(a.server.presence('lobby').list()), ['ada'])
})

Chat.run()

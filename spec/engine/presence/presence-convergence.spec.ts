/**
 * Presence converges across nodes (issue 28, session 11): on the in-memory cluster, with
 * messages lost and answers late (`MemoryHub.fault`), a node's copy of another catches up:
 * a lost change with no later one, a fetch of the node's state that times out (retried)
 * while the node goes on changing, a node restarted under its id with nothing in the topic.
 * Deltas and digests are told, not asked (session 12: `ClusterAdapter.tell`, no answer
 * tracked); a lost one is repaired by the digest, and an adapter without `tell` still works.
 * A node that knows no other (session 13: the adapter's `liveNodes` empty, no node heard from)
 * tells nothing, and a node that joins later still sees what it did alone: by its opening
 * fetch, or, that lost, by the digests once the heartbeat shows the nodes to each other.
 * No timing is asserted: each waits for the view it expects, within a bound.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { Presence, PresenceDiff } from '../../../lib/core/presence/presence.js'
import type { ClusterAdapter } from '../../../lib/engine/cluster/cluster-adapter.js'
import type { Client } from '../../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../../lib/engine/create-engine.js'
import { memoryHub } from '../../support/memory-cluster.js'
import { memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const utf8 = new TextEncoder()
const pause = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

// Waits until `done()` holds, failing with `what` past `boundMs`.
const until = async (done: () => boolean, what: string, boundMs = 8000): Promise<void> => {
  for (const start = Date.now(); !done(); await pause(20)) {
    if (Date.now() - start > boundMs) assert.unreachable(`not within ${boundMs} ms: ${what}`)
  }
}

// The presence message a cluster request carries (`tp:presence`), by its kind.
const presenceKind = (body: unknown): string | undefined => {
  if (typeof body !== 'object' || body === null || !('data' in body)) return undefined
  const data = body.data
  return typeof data === 'object' && data !== null && 't' in data && typeof data.t === 'string' ? data.t : undefined
}

interface Node {
  readonly engine: Engine<MemorySocket>
  readonly clients: Client<MemorySocket>[]
  readonly lobby: Presence
}

const start = (adapter: ClusterAdapter): Node => {
  const engine = createEngine({ cluster: adapter }, memoryPlatform())
  return { engine, clients: [], lobby: engine.handle.presence('lobby') }
}

// A WebSocket client of `node`, tracked in `lobby` under `key` (its delta made: one per join).
const join = async (node: Node, key: string): Promise<void> => {
  const client = node.engine.accept({ out: [], ended: false, closed: false }) as Client<MemorySocket>
  client.receiver.receive(utf8.encode('GET / HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'))
  await until(() => node.engine.handle.clients().some((c) => c.id === client.id), 'the upgrade')
  node.clients.push(client)
  assert.ok(node.lobby.track(client.id, key))
  await until(() => node.lobby.get(key).some((m) => m.ref === `${node.engine.handle.cluster.nodeId}/${client.id}`), `${key} in its node's list`)
}

const stop = async (node: Node): Promise<void> => {
  const closing = node.engine.handle.close()
  for (const client of node.clients) {
    client.socket.closed = true
    node.engine.closed(client)
  }
  await closing
}

const keys = (p: Presence): string => Object.keys(p.list()).sort().join(',')

test('presence :: a lost change with no later one is repaired (the digest finds it)', async () => {
  const hub = memoryHub()
  const a = start(hub.node('a'))
  const b = start(hub.node('b'))
  try {
    const onB: PresenceDiff[] = []
    b.lobby.subscribe((d) => void onB.push(d))
    await join(a, 'ada')
    await until(() => keys(b.lobby) === 'ada', 'b to see ada')
    let lost = 0
    hub.fault((from, _to, body) => (from === 'a' && presenceKind(body) === 'delta' && lost++ === 0 ? 'lose' : undefined))
    await join(a, 'bob')
    await until(() => lost > 0, 'the delta with bob to be lost')
    await until(() => keys(b.lobby) === 'ada,bob', 'b to catch up with bob')
    assert.equal(keys(a.lobby), 'ada,bob')
    assert.equal(onB.flatMap((d) => d.joined), ['ada', 'bob'])
  } finally {
    hub.fault(undefined)
    await Promise.all([stop(a), stop(b)])
  }
})

test('presence :: deltas are told (no answer asked); one lost with no later change is repaired by the digest and a fetch', async () => {
  const hub = memoryHub()
  const inner = hub.node('a')
  const asked: unknown[] = []
  const a = start({ ...inner, request: (body, options) => (asked.push(body), inner.request(body, options)) })
  const b = start(hub.node('b'))
  try {
    await join(a, 'ada')
    await until(() => keys(b.lobby) === 'ada', 'b to see ada')
    const toldBy = (node: string, kind: string): number => hub.told.filter((m) => m.from === node && presenceKind(m.body) === kind).length
    assert.is(toldBy('a', 'delta'), 1, 'ada’s join was told')
    assert.ok(!asked.some((body) => presenceKind(body) === 'delta' || presenceKind(body) === 'digest'), 'no delta or digest was asked as a request')
    let lost = 0
    let fetches = 0
    hub.fault((from, to, body) => {
      if (from === 'b' && to === 'a' && presenceKind(body) === 'sync') fetches++
      return from === 'a' && presenceKind(body) === 'delta' && lost++ === 0 ? 'lose' : undefined
    })
    await join(a, 'bob')
    await until(() => lost > 0, 'the told delta with bob to be lost')
    // No later change: only a's digest can tell b it is behind.
    await until(() => keys(b.lobby) === 'ada,bob', 'b to catch up with bob')
    assert.ok(toldBy('a', 'digest') > 0, 'a told its digest')
    assert.ok(fetches > 0, 'b fetched a’s state once the digest said it was behind')
    assert.equal(b.lobby.get('bob').map((m) => m.ref), [`a/${(a.clients[1] as Client<MemorySocket>).id}`])
  } finally {
    hub.fault(undefined)
    await Promise.all([stop(a), stop(b)])
  }
})

test('presence :: an adapter without tell: deltas go as requests and still converge, a lost one repaired', async () => {
  const hub = memoryHub({ tell: false })
  const a = start(hub.node('a'))
  const b = start(hub.node('b'))
  try {
    await join(a, 'ada')
    await until(() => keys(b.lobby) === 'ada', 'b to see ada')
    let lost = 0
    hub.fault((from, _to, body) => (from === 'a' && presenceKind(body) === 'delta' && lost++ === 0 ? 'lose' : undefined))
    await join(a, 'bob')
    await until(() => keys(b.lobby) === 'ada,bob', 'b to catch up with bob')
    assert.is(hub.told.length, 0)
    assert.ok(lost > 0)
  } finally {
    hub.fault(undefined)
    await Promise.all([stop(a), stop(b)])
  }
})

test('presence :: a fetch of a node’s state that times out is retried, and converges while the node goes on changing', async () => {
  const hub = memoryHub()
  const a = start(hub.node('a'))
  const b = start(hub.node('b'))
  try {
    await b.lobby.sync()
    let deltas = 0
    let syncs = 0
    hub.fault((from, to, body) => {
      const kind = presenceKind(body)
      if (from === 'a' && kind === 'delta' && deltas++ === 0) return 'lose' // ada's join: b sees a gap next
      if (from === 'b' && to === 'a' && kind === 'sync' && syncs++ < 3) return 'late' // b's first three fetches time out
      return undefined
    })
    await join(a, 'ada')
    await join(a, 'bob')
    await until(() => syncs >= 1, 'b to ask a for its state')
    // Changes while b is catching up: kept and applied on top of the state once it comes.
    await join(a, 'cy')
    a.lobby.untrack((a.clients[1] as Client<MemorySocket>).id)
    await join(a, 'dan')
    await until(() => keys(b.lobby) === 'ada,cy,dan', 'b to converge on a’s view')
    assert.ok(syncs > 3, `b fetched again after its fetches timed out (${syncs} fetches)`)
    assert.equal(b.lobby.get('cy').map((m) => m.ref), [`a/${(a.clients[2] as Client<MemorySocket>).id}`])
  } finally {
    hub.fault(undefined)
    await Promise.all([stop(a), stop(b)])
  }
})

test('presence :: a node restarted under its id with nothing in the topic: its former entries leave', async () => {
  const hub = memoryHub()
  const b = start(hub.node('b'))
  const first = start(hub.node('a'))
  let again: Node | undefined
  try {
    await join(b, 'bob')
    await join(first, 'ada')
    await until(() => keys(b.lobby) === 'ada,bob', 'b to see ada')
    // a crashes: nothing it says any more reaches b (no leave, no node-left from this adapter).
    let leaveLost = false
    hub.fault((from, _to, body) => {
      if (from !== 'a') return undefined
      if (presenceKind(body) === 'delta') leaveLost = true
      return 'lose'
    })
    await stop(first)
    await until(() => leaveLost, 'a’s last delta (ada leaving) to be lost')
    hub.fault(undefined)
    await pause(2) // a later epoch (ms) for the run that follows
    again = start(hub.node('a'))
    await until(() => keys(b.lobby) === 'bob', 'ada (of a’s former run) to leave b')
    await until(() => keys(again?.lobby as Presence) === 'bob', 'the new a to see bob')
  } finally {
    hub.fault(undefined)
    await Promise.all([stop(b), ...(again === undefined ? [] : [stop(again)])])
  }
})

test('presence :: a node alone tells no delta; one that joins later gets its state by its fetch, and its later deltas', async () => {
  const hub = memoryHub({ liveness: true })
  hub.beat()
  const a = start(hub.node('a'))
  hub.beat() // a knows it is alone
  let b: Node | undefined
  try {
    const toldBy = (kind: string): number => hub.told.filter((m) => m.from === 'a' && presenceKind(m.body) === kind).length
    await join(a, 'ada')
    await join(a, 'bob')
    assert.is(toldBy('delta'), 0, 'no delta told while a knows no other node')
    // b starts; a's heartbeat does not show it yet: b's opening fetch reaches a.
    const joined = start(hub.node('b'))
    b = joined
    const onB: PresenceDiff[] = []
    joined.lobby.subscribe((d) => void onB.push(d))
    await until(() => keys(joined.lobby) === 'ada,bob', 'b to get what a did alone')
    await join(a, 'cy')
    await until(() => keys(joined.lobby) === 'ada,bob,cy', 'b to see cy')
    assert.is(toldBy('delta'), 1, 'a told cy’s join: b asked it, so a is not alone')
    assert.equal(onB.flatMap((d) => d.joined), ['ada', 'bob', 'cy'])
  } finally {
    await Promise.all([stop(a), ...(b === undefined ? [] : [stop(b)])])
  }
})

test('presence :: a node alone whose newcomer’s fetch is lost: the heartbeat shows them to each other and the digest brings it', async () => {
  const hub = memoryHub({ liveness: true })
  hub.beat()
  const a = start(hub.node('a'))
  hub.beat()
  let b: Node | undefined
  try {
    await join(a, 'ada')
    assert.is(hub.told.filter((m) => m.from === 'a' && presenceKind(m.body) === 'delta').length, 0, 'nothing told alone')
    // b's opening fetch of a's state is lost: a does not learn of b from it.
    let lost = 0
    hub.fault((from, to, body) => (from === 'b' && to === 'a' && presenceKind(body) === 'sync' && lost++ === 0 ? 'lose' : undefined))
    const joined = start(hub.node('b'))
    b = joined
    await until(() => lost > 0, 'b’s fetch to be lost')
    await join(a, 'bob') // made while a still knows no other node: not told
    hub.beat() // the heartbeat: each knows the other now; the digests say where each is
    await until(() => keys(joined.lobby) === 'ada,bob', 'b to catch up with what a did alone')
    await join(a, 'cy')
    await until(() => keys(joined.lobby) === 'ada,bob,cy', 'b to see cy')
  } finally {
    hub.fault(undefined)
    await Promise.all([stop(a), ...(b === undefined ? [] : [stop(b)])])
  }
})

test.run()

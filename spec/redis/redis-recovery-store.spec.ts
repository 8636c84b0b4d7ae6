/**
 * The Redis recovery store against a real redis-server: sessions written by one node are
 * read by another (a node's crash loses nothing the store has), frames come back in order
 * or as an explicit resync, and room logs are the adapter's streams.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadSession } from '../../lib/engine/recovery/load-session.js'
import type { RecoveryStore } from '../../lib/engine/recovery/recovery-store.js'
import { onConnect, routes } from '../../lib/index.js'
import { nodeTimers } from '../../lib/runtime/node-timers.js'
import { redisRecoveryStore, type RedisRecoveryStore, type SessionRecord } from '../../lib/redis/index.js'
import type { RedisPort } from '../../lib/redis/redis-port.js'
import { simulateFailover, startRedis } from '../support/redis.js'
import { redisSuite } from '../support/redis-suite.js'
import { delay, eventually, openClient } from '../support/server.js'

const Store = suite('redisRecoveryStore')
const shared = redisSuite(Store, {
  start: startRedis,
  prefix: 'rec',
  adapter: (redis) => ({ url: redis.url }),
})
const store = async (maxFrames?: number, prefix = shared.prefix): Promise<RedisRecoveryStore> => {
  const s = redisRecoveryStore({ url: shared.redis.url, prefix, ...(maxFrames === undefined ? {} : { maxFrames }) })
  await s.connect()
  shared.defer(() => s.close())
  return s
}
const frame = (text: string): Uint8Array => new Uint8Array([0x81, text.length, ...new TextEncoder().encode(text)])
const session = (sid: string, over: Partial<SessionRecord> = {}): SessionRecord => ({
  sid,
  namespace: '/',
  rooms: ['lobby'],
  data: { name: 'Ada' },
  lastSeq: 0,
  expiresAt: Date.now() + 60_000,
  ...over,
})

Store('a session written on one node is read on another, as written; the last write wins', async () => {
  const nodeA = await store()
  const nodeB = await store()
  await nodeA.saveSession(session('s1'))
  await nodeA.saveSession(session('s1', { rooms: ['lobby', 'vip'], data: { name: 'Ada', seat: 3 }, lastSeq: 4, cursors: { '/\u0000lobby': { epoch: 9, n: 2 } } }))
  await nodeA.close()
  const loaded = await nodeB.loadSession('s1')
  assert.equal(loaded, { ...session('s1'), rooms: ['lobby', 'vip'], data: { name: 'Ada', seat: 3 }, lastSeq: 4, cursors: { '/\u0000lobby': { epoch: 9, n: 2 } }, expiresAt: loaded?.expiresAt })
  assert.is(await nodeB.loadSession('nobody'), undefined)
})

Store('a session expires at its time; a corrupt record reads as none', async () => {
  const s = await store()
  await s.saveSession(session('brief', { expiresAt: Date.now() + 150 }))
  assert.ok((await s.loadSession('brief')) !== undefined)
  await delay(250)
  assert.is(await s.loadSession('brief'), undefined)
  assert.equal(await s.readSince('brief', 0), { _tag: 'Resync', reason: 'unknown_session' })
  await shared.redis.cli('SET', 'rec:{s:bad}:state', '{"sid":"bad"}')
  await shared.redis.cli('SET', 'rec:{s:worse}:state', 'not json')
  assert.is(await s.loadSession('bad'), undefined)
  assert.is(await s.loadSession('worse'), undefined)
})

Store('frames come back after a number, in order; a repeat is harmless; nothing new is an empty list', async () => {
  const s = await store()
  await s.saveSession(session('s2'))
  const until = Date.now() + 60_000
  for (let seq = 1; seq <= 5; seq++) await s.append('s2', seq, frame(`m${seq}`), until)
  await s.append('s2', 5, frame('m5 again'), until)
  const read = await s.readSince('s2', 2)
  assert.equal(read, { _tag: 'Frames', frames: [3, 4, 5].map((seq) => ({ seq, frame: frame(`m${seq}`) })) })
  assert.equal(await s.readSince('s2', 5), { _tag: 'Frames', frames: [] })
  try {
    await s.append('s2', 0, frame('x'), until)
    assert.unreachable('appended frame 0')
  } catch (error) {
    assert.match(String(error), /seq must be a positive integer/)
  }
})

Store('frames no longer kept (past maxFrames) make a resync, never a silent gap', async () => {
  const s = await store(3)
  await s.saveSession(session('s3'))
  for (let seq = 1; seq <= 6; seq++) await s.append('s3', seq, frame(`m${seq}`), Date.now() + 60_000)
  assert.equal(await s.readSince('s3', 1), { _tag: 'Resync', reason: 'gap' })
  assert.equal((await s.readSince('s3', 3)) as unknown, { _tag: 'Frames', frames: [4, 5, 6].map((seq) => ({ seq, frame: frame(`m${seq}`) })) })
  await shared.redis.cli('DEL', 'rec:{s:s3}:frames')
  await shared.redis.cli('XADD', 'rec:{s:s3}:frames', '0-9', 'f', 'x')
  assert.equal(await s.readSince('s3', 10), { _tag: 'Frames', frames: [] })
  await shared.redis.cli('XTRIM', 'rec:{s:s3}:frames', 'MAXLEN', '0')
  assert.equal(await s.readSince('s3', 3), { _tag: 'Resync', reason: 'gap' })
})

Store('deleteSession forgets the state and the frames', async () => {
  const s = await store()
  await s.saveSession(session('s4'))
  await s.append('s4', 1, frame('m'), Date.now() + 60_000)
  await s.deleteSession('s4')
  assert.is(await s.loadSession('s4'), undefined)
  assert.is(await shared.redis.cli('EXISTS', 'rec:{s:s4}:frames'), '0')
})

Store('readRoomSince reads the adapter\'s room log: the frames after a place (from the start after {0,0}), with their origin, a gap', async () => {
  const { server, port, adapter } = await shared.startNode('n1', {}, { routes: routes({ j: onConnect((ctx) => ctx.joinRoom('lobby')) }) })
  const member = await openClient(port)
  await delay(50)
  for (let i = 1; i <= 4; i++) server.broadcast('n', i, { room: 'lobby' })
  await eventually(() => adapter.stats().published === 4, 2000, 'the broadcasts to reach Redis')
  const s = await store()
  const all = await s.readRoomSince?.('/', 'lobby', { epoch: 0, n: 0 })
  assert.ok(all?._tag === 'Frames')
  assert.equal(all.frames.map((f) => [f.seq.n, f.origin, f.envelope]), [1, 2, 3, 4].map((n) => [n, 'n1', true]))
  const epoch = Number((await shared.redis.cli('HGET', 'rec:{r:%2F:lobby}:q', 'e')).trim())
  assert.equal(await s.targetPosition?.({ namespace: '/', room: 'lobby' }), { epoch, n: 4 })
  assert.equal(await s.targetPosition?.({ namespace: '/', room: 'nobody' }), { epoch: 0, n: 0 })
  assert.equal(await s.readRoomSince?.('/', 'lobby', { epoch: epoch - 1, n: 2 }), { _tag: 'Resync', reason: 'new_epoch' })
  const after2 = await s.readRoomSince?.('/', 'lobby', { epoch, n: 2 })
  assert.ok(after2?._tag === 'Frames')
  assert.equal(after2.frames.map((f) => [f.seq.n, new TextDecoder().decode(f.frame.subarray(2))]), [
    [3, '{"event":"n","data":3}'],
    [4, '{"event":"n","data":4}'],
  ])
  assert.equal(await s.readRoomSince?.('/', 'lobby', { epoch, n: 4 }), { _tag: 'Frames', frames: [] })
  await shared.redis.cli('XTRIM', 'rec:{r:%2F:lobby}:s', 'MAXLEN', '1')
  assert.equal(await s.readRoomSince?.('/', 'lobby', { epoch, n: 1 }), { _tag: 'Resync', reason: 'gap' })
  await shared.redis.cli('XTRIM', 'rec:{r:%2F:lobby}:s', 'MAXLEN', '0')
  assert.equal(await s.readRoomSince?.('/', 'lobby', { epoch, n: 1 }), { _tag: 'Resync', reason: 'gap' })
  // A foreign entry in the log is not handed out: the reader is told to resync.
  await shared.redis.cli('XADD', 'rec:{r:%2F:lobby}:s', `${epoch}-9`, 'm', 'not a cluster message')
  assert.equal(await s.readRoomSince?.('/', 'lobby', { epoch, n: 8 }), { _tag: 'Resync', reason: 'gap' })
  member.ws.close()
})

// A Redis Cluster failover that lost the room's last `lost` writes (spec/support/redis.ts).
const failover = (room: string, lost: number, newEpoch: boolean): Promise<number> => simulateFailover(shared.redis, shared.prefix, room, lost, newEpoch)

Store('readRoomSince after a failover: a cursor in the old epoch gets the rest of it and the new epoch once; one past its end is a gap', async () => {
  const { server, port, adapter } = await shared.startNode('n1', {}, { routes: routes({ j: onConnect((ctx) => ctx.joinRoom('hall')) }) })
  const member = await openClient(port)
  await delay(50)
  for (let i = 1; i <= 5; i++) server.broadcast('n', i, { room: 'hall' })
  await eventually(() => adapter.stats().published === 5, 2000, 'the broadcasts to reach Redis')
  const s = await store()
  // The new master had 1..4 (5 was lost); no broadcast since: the epoch has not changed yet.
  const old = await failover('hall', 1, false)
  assert.equal(await s.readRoomSince?.('/', 'hall', { epoch: old, n: 5 }), { _tag: 'Resync', reason: 'gap' }, 'saw 5, which Redis no longer has')
  assert.equal(await s.targetPosition?.({ namespace: '/', room: 'hall' }), { epoch: old, n: 4 })
  // The next broadcasts start the new epoch.
  await failover('hall', 0, true)
  server.broadcast('n', 6, { room: 'hall' })
  server.broadcast('n', 7, { room: 'hall' })
  await eventually(() => adapter.stats().published === 7, 2000, 'the broadcasts of the new epoch')
  const text = (read: Awaited<ReturnType<NonNullable<typeof s.readRoomSince>>> | undefined) =>
    read?._tag === 'Frames' ? read.frames.map((f) => [f.seq.epoch - old, f.seq.n, new TextDecoder().decode(f.frame.subarray(2))]) : read?.reason
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: old, n: 2 })), [
    [0, 3, '{"event":"n","data":3}'],
    [0, 4, '{"event":"n","data":4}'],
    [1000, 1, '{"event":"n","data":6}'],
    [1000, 2, '{"event":"n","data":7}'],
  ])
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: old, n: 4 })), [
    [1000, 1, '{"event":"n","data":6}'],
    [1000, 2, '{"event":"n","data":7}'],
  ])
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: old, n: 5 })), 'gap', 'the old epoch ended behind the cursor')
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: old + 1000, n: 1 })), [[1000, 2, '{"event":"n","data":7}']])
  assert.equal((text(await s.readRoomSince?.('/', 'hall', { epoch: 0, n: 0 })) as unknown[]).length, 6, 'from the start: both epochs')
  // The old epoch trimmed from the log: a cursor in it can no longer be placed.
  await shared.redis.cli('XTRIM', 'rec:{r:%2F:hall}:s', 'MAXLEN', '2')
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: old, n: 2 })), 'gap')
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: old, n: 4 })), [
    [1000, 1, '{"event":"n","data":6}'],
    [1000, 2, '{"event":"n","data":7}'],
  ], 'the counter still says where the old epoch ended')
  assert.equal(text(await s.readRoomSince?.('/', 'hall', { epoch: 0, n: 0 })), 'gap')
  member.ws.close()
})

Store('a session with no frames yet, and a room with no log: nothing missed', async () => {
  const s = await store()
  await s.saveSession(session('fresh'))
  assert.equal(await s.readSince('fresh', 0), { _tag: 'Frames', frames: [] })
  assert.equal(await s.readRoomSince?.('/', 'silent', { epoch: 1, n: 0 }), { _tag: 'Frames', frames: [] })
})

Store('saveProgress writes frames and state in one go; another node\'s writes and deletes are refused after a claim, and the claim drops its later frames', async () => {
  const a = await store(5)
  const b = await store(5)
  const until = Date.now() + 60_000
  const f = (seq: number) => ({ seq, frame: frame(`m${seq}`) })
  assert.is(await a.saveProgress?.(session('s9', { lastSeq: 3, node: 'a', expiresAt: until }), [f(1), f(2), f(3)]), true)
  assert.equal(await b.readSince('s9', 1), { _tag: 'Frames', frames: [f(2), f(3)] })
  assert.is((await b.loadSession('s9'))?.node, 'a')
  // a wrote 4 after b loaded up to 3; b takes the session over from 3: 4 is a's, dropped.
  assert.is(await a.saveProgress?.(session('s9', { lastSeq: 4, node: 'a', expiresAt: until }), [f(4)]), true)
  assert.is(await b.saveProgress?.(session('s9', { lastSeq: 3, node: 'b', expiresAt: until }), [], true), true)
  assert.is(await a.saveProgress?.(session('s9', { lastSeq: 5, node: 'a', expiresAt: until }), [f(5)]), false, 'refused to the old holder')
  await a.deleteSession('s9', 'a')
  assert.is((await b.loadSession('s9'))?.node, 'b', 'not deleted by the old holder')
  assert.is(await b.saveProgress?.(session('s9', { lastSeq: 4, node: 'b', expiresAt: until }), [{ seq: 4, frame: frame('b4') }]), true)
  assert.equal(await b.readSince('s9', 3), { _tag: 'Frames', frames: [{ seq: 4, frame: frame('b4') }] })
  // Past maxFrames the oldest go: a resume from before them is a gap.
  await b.saveProgress?.(session('s9', { lastSeq: 9, node: 'b', expiresAt: until }), [5, 6, 7, 8, 9].map(f))
  assert.equal(await b.readSince('s9', 2), { _tag: 'Resync', reason: 'gap' })
  await b.deleteSession('s9', 'b')
  assert.is(await b.loadSession('s9'), undefined)
  // A Redis that lost its script cache gets the script again.
  await shared.redis.cli('SCRIPT', 'FLUSH')
  assert.is(await b.saveProgress?.(session('s10', { node: 'b' }), []), true)
})

// A store whose first read is followed, before any other read starts, by `write` (another
// node's): the interleaving of a journal write landing between two reads, without timing.
const writeAfterFirstRead = (inner: RecoveryStore, write: () => Promise<unknown>): RecoveryStore => {
  let first: Promise<unknown> | undefined
  const step = <A>(read: () => Promise<A>): Promise<A> => {
    if (first !== undefined) return first.then(read)
    const answer = read()
    first = answer.then(write)
    return first.then(() => answer)
  }
  const since = inner.loadSessionSince?.bind(inner)
  return {
    ...inner,
    loadSession: (sid) => step(() => inner.loadSession(sid)),
    readSince: (sid, after) => step(() => inner.readSince(sid, after)),
    ...(since === undefined ? {} : { loadSessionSince: (sid: string, after: number) => step(() => since(sid, after)) }),
  }
}

Store('loadSession :: the old node\'s last journal write landing between the reads: the record and its frames still fit (one read), never a false "gap"', async () => {
  const nodeA = await store()
  const nodeB = await store()
  const text = (n: number) => `{"event":"tick","data":${n},"seq":${n}}`
  const numbered = (n: number) => ({ seq: n, frame: new TextEncoder().encode(text(n)) })
  // A journaled 1 and 2; the client saw 2 and no more (3 never reached it: A died first),
  // but A's write of 3 is still on its way to Redis.
  const start = async (sid: string) => {
    assert.ok(await nodeA.saveProgress?.(session(sid, { lastSeq: 2, node: 'a' }), [numbered(1), numbered(2)]))
    return async () => nodeA.saveProgress?.(session(sid, { lastSeq: 3, node: 'a' }), [numbered(3)])
  }
  // Read apart (what a store without loadSessionSince gets): the record from before the
  // write, the frames from after it. They do not fit: the race behind the false "gap".
  const apart = writeAfterFirstRead(nodeB, await start('race-apart'))
  const { loadSessionSince: _, ...twoReads } = apart
  assert.equal(await loadSession(twoReads, nodeTimers, 'race-apart', 2, 2000), { _tag: 'Resync', reason: 'gap', cause: 'record_mismatch' })
  // Read at one instant: before the write (the record at 2, nothing to replay)...
  const loaded = await loadSession(writeAfterFirstRead(nodeB, await start('race-one')), nodeTimers, 'race-one', 2, 2000)
  assert.is(loaded._tag, 'Found')
  assert.equal(loaded._tag === 'Found' ? [loaded.record.lastSeq, loaded.kept] : undefined, [2, []])
  // ...or after it (the record at 3, and 3 to replay), whichever comes first.
  const write = await start('race-after')
  await write()
  const after = await loadSession(nodeB, nodeTimers, 'race-after', 2, 2000)
  assert.equal(after._tag === 'Found' ? [after.record.lastSeq, after.kept] : after, [3, [text(3)]])
})

Store('loadSessionSince :: the record and the frames after a number at once; an unknown session; frames gone; a bad number', async () => {
  const s = await store(2)
  assert.equal(await s.loadSessionSince?.('nobody', 0), { record: undefined, read: { _tag: 'Resync', reason: 'unknown_session' } })
  await s.saveProgress?.(session('since', { lastSeq: 3 }), [1, 2, 3].map((n) => ({ seq: n, frame: frame(`m${n}`) })))
  const both = await s.loadSessionSince?.('since', 2)
  assert.equal(both?.record?.lastSeq, 3)
  assert.equal(both?.read._tag === 'Frames' ? both.read.frames.map((f) => f.seq) : both?.read, [3])
  assert.equal((await s.loadSessionSince?.('since', 3))?.read, { _tag: 'Frames', frames: [] })
  // Only 2 frames are kept: 1 is gone (in the middle, and past the end of what is asked).
  assert.equal((await s.loadSessionSince?.('since', 0))?.read, { _tag: 'Resync', reason: 'gap' })
  await s.saveSession(session('emptied', { lastSeq: 3 }))
  await s.saveProgress?.(session('emptied', { lastSeq: 3 }), [])
  await s.append('emptied', 1, frame('m1'), Date.now() + 60_000)
  await shared.redis.cli('XTRIM', 'rec:{s:emptied}:frames', 'MAXLEN', '0')
  assert.equal((await s.loadSessionSince?.('emptied', 0))?.read, { _tag: 'Resync', reason: 'gap' })
  const refused = await s.loadSessionSince?.('since', -1).then(
    () => undefined,
    (error: unknown) => String(error),
  )
  assert.match(refused ?? '', /afterSeq must be a non-negative integer, got -1/)
})

// A port that answers every command with `reply` (a reply read out of place, as a connection
// whose bytes were reordered gave: bench/RESULTS.md "Session 13: sessions after a partition").
const answering = (reply: unknown): RedisPort => ({
  command: async () => reply,
  subscribe: async () => undefined,
  unsubscribe: async () => undefined,
  commandsReady: true,
  on: () => undefined,
  connect: async () => undefined,
  close: async () => undefined,
})

Store('an answer that is not the script\'s own fails the write (tried again), never reads as refused; a place that is not two numbers fails too', async () => {
  for (const reply of [null, 'OK', [Buffer.from('x')], 2]) {
    const s = redisRecoveryStore({ port: answering(reply), prefix: shared.prefix })
    const error = await s.saveProgress?.(session('w1'), []).then(() => undefined, (e: unknown) => e)
    assert.instance(error, Error, `a write answered ${JSON.stringify(reply)}`)
  }
  assert.is(await redisRecoveryStore({ port: answering(1), prefix: shared.prefix }).saveProgress?.(session('w1'), []), true)
  assert.is(await redisRecoveryStore({ port: answering(0), prefix: shared.prefix }).saveProgress?.(session('w1'), []), false)
  for (const reply of [[Buffer.from('{"sid"'), null], ['1', 'x'], 1, ['1']]) {
    const error = await redisRecoveryStore({ port: answering(reply), prefix: shared.prefix }).targetPosition?.({}).then(() => undefined, (e: unknown) => e)
    assert.instance(error, Error, `a place answered ${String(reply)}`)
  }
  assert.equal(await redisRecoveryStore({ port: answering(['7', '3']), prefix: shared.prefix }).targetPosition?.({}), { epoch: 7, n: 3 })
  assert.equal(await redisRecoveryStore({ port: answering([null, null]), prefix: shared.prefix }).targetPosition?.({}), { epoch: 0, n: 0 })
})

Store('a store refuses a bad maxFrames', () => {
  assert.throws(() => redisRecoveryStore({ maxFrames: 0 }), /maxFrames must be a positive integer/)
})

Store.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { MissedFrame, RecoveryStore, SessionRecord } from '../../../lib/engine/recovery/recovery-store.js'
import { countingStore } from '../../../bench/recovery/counting-store.js'

const record = (sid: string): SessionRecord => ({ sid, namespace: '/', rooms: [], data: {}, lastSeq: 0, expiresAt: 1 })
const frames = (...texts: string[]): MissedFrame[] => texts.map((t, i) => ({ seq: i + 1, frame: new TextEncoder().encode(t) }))

// A store whose saveProgress calls wait until the test settles them, with a clock the test moves.
const fake = () => {
  const calls: { settle: (ok: boolean) => void; fail: (e: Error) => void }[] = []
  let time = 0
  const store: RecoveryStore = {
    saveSession: async () => undefined,
    loadSession: async () => undefined,
    append: async () => undefined,
    readSince: async () => ({ _tag: 'Frames', frames: [] }),
    deleteSession: async () => undefined,
    saveProgress: () => new Promise<boolean>((resolve, reject) => void calls.push({ settle: resolve, fail: reject })),
  }
  return { store, calls, clock: { now: () => time, advance: (ms: number) => void (time += ms) } }
}

test('countingStore :: counts calls, frames and bytes, flushes (runs of calls) and the most in flight', async () => {
  const { store, calls, clock } = fake()
  const counted = countingStore(store, clock.now)
  const first = [counted.store.saveProgress?.(record('a'), frames('x', 'yz')), counted.store.saveProgress?.(record('b'), frames('w'))]
  assert.is(counted.counts().inFlight, 2)
  clock.advance(30)
  for (const c of calls.splice(0)) c.settle(true)
  await Promise.all(first)
  const second = counted.store.saveProgress?.(record('a'), frames())
  calls[0]?.settle(false)
  assert.is(await second, false)
  const counts = counted.counts()
  assert.equal(
    { calls: counts.calls, frames: counts.frames, frameBytes: counts.frameBytes, flushes: counts.flushes, maxInFlight: counts.maxInFlight, inFlight: counts.inFlight, refused: counts.refused, slowestMs: counts.slowestMs },
    { calls: 3, frames: 3, frameBytes: 4, flushes: 2, maxInFlight: 2, inFlight: 0, refused: 1, slowestMs: 30 },
  )
  assert.is(counts.firstAt, 0)
  assert.is(counts.lastDoneAt, 30)
})

test('countingStore :: a failing call is counted and still rejects; reset starts again from nothing', async () => {
  const { store, calls, clock } = fake()
  const counted = countingStore(store, clock.now)
  const call = counted.store.saveProgress?.(record('a'), frames('x'))
  calls[0]?.fail(new Error('down'))
  await call?.then(() => assert.unreachable('it rejects'), (error: Error) => assert.is(error.message, 'down'))
  assert.is(counted.counts().failed, 1)
  counted.reset()
  assert.is(counted.counts().calls, 0)
  assert.ok(Number.isNaN(counted.counts().firstAt))
})

test('countingStore :: quiet waits for the calls in flight, then for the quiet period', async () => {
  const { store, calls, clock } = fake()
  const counted = countingStore(store, clock.now, async (ms) => clock.advance(ms))
  void counted.store.saveProgress?.(record('a'), frames('x'))
  // Still in flight after the whole bound: not quiet.
  assert.is(await counted.quiet(50, 200), false)
  calls[0]?.settle(true)
  await Promise.resolve()
  assert.is(await counted.quiet(50, 200), true)
})

test('countingStore :: every other method is the wrapped store\'s; a store without saveProgress is refused', async () => {
  const { store, clock } = fake()
  const counted = countingStore(store, clock.now)
  assert.is(counted.store.loadSession, store.loadSession)
  const { saveProgress: _none, ...plain } = store
  assert.throws(() => countingStore(plain, clock.now), /no saveProgress/)
})

test.run()

import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LogEntry } from '../../../lib/core/log/logger.js'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import { ClientSession } from '../../../lib/engine/recovery/client-session.js'
import type { Timers } from '../../../lib/engine/platform.js'
import { createRecoveryJournal, type RecoveryJournalDeps } from '../../../lib/engine/recovery/recovery-journal.js'
import type { SessionRecord } from '../../../lib/engine/recovery/recovery-store.js'
import { memoryRecoveryStore } from '../../support/memory-recovery-store.js'

// Timers the test runs by hand; time stands still at 1000.
const manual = () => {
  const pending = new Map<number, () => void>()
  // The journal's refresh (every half window), run by hand with `refresh()`.
  const intervals: (() => void)[] = []
  let next = 1
  const timers: Timers = {
    now: () => 1000,
    setTimeout: (run) => {
      pending.set(next, run)
      return next++
    },
    clearTimeout: (id) => void pending.delete(id as number),
    setInterval: (run) => intervals.push(run),
    clearInterval: () => undefined,
    afterIo: (run) => run(),
  }
  const fire = async (): Promise<void> => {
    const runs = [...pending.values()]
    pending.clear()
    for (const run of runs) run()
    await new Promise((resolve) => setTimeout(resolve, 1))
  }
  const refresh = (): void => intervals.forEach((run) => run())
  return { timers, fire, pending, refresh }
}

const setup = (over: Partial<RecoveryJournalDeps> = {}) => {
  const store = memoryRecoveryStore()
  const { timers, fire, pending, refresh } = manual()
  const entries: LogEntry[] = []
  const moved: string[] = []
  const journal = createRecoveryJournal({
    store,
    timers,
    logger: makeLogger((e) => entries.push(e)),
    nodeId: 'a',
    windowMs: 1000,
    flushMs: 5,
    maxPendingBytes: 1000,
    timeoutMs: 100,
    state: () => ({ namespace: '/', rooms: ['lobby'], data: { name: 'Ada' } }),
    moved: (session) => void moved.push(session.sid),
    ...over,
  })
  const session = new ClientSession('s1', 1, { windowMs: 1000, maxMessages: 100, maxAnswers: 8 })
  session.recorder = journal
  return { store, journal, session, fire, pending, entries, moved, refresh }
}

test('createRecoveryJournal :: messages and state gather and go in one write per session per flush, in order', async () => {
  const { store, journal, session, fire } = setup()
  journal.changed(session)
  for (let i = 1; i <= 3; i++) session.number(`{"event":"n","data":${i}}`)
  assert.is(store.calls.length, 0, 'nothing written on the way')
  await fire()
  assert.equal(store.calls, ['saveProgress'])
  assert.equal(store.frames.get('s1')?.map((f) => new TextDecoder().decode(f.frame)), [1, 2, 3].map((i) => `{"event":"n","data":${i},"seq":${i}}`))
  assert.equal(store.sessions.get('s1'), { sid: 's1', namespace: '/', rooms: ['lobby'], data: { name: 'Ada' }, lastSeq: 3, expiresAt: 3000, node: 'a', lastOwn: {} })
  journal.away(session)
  await fire()
  assert.is(store.sessions.get('s1')?.expiresAt, 2000, 'an away session ends with its window')
})

test('createRecoveryJournal :: a failing store: said once, written again in order when it answers, and said so', async () => {
  const { store, journal, session, fire, entries } = setup()
  journal.changed(session)
  session.number('{"event":"n","data":1}')
  store.mode = 'down'
  await fire()
  session.number('{"event":"n","data":2}')
  await fire()
  assert.equal(entries.filter((e) => e.level === 'warning').length, 1)
  store.mode = 'ok'
  await fire()
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1, 2])
  assert.ok(entries.some((e) => e.level === 'info' && e.message.startsWith('recovery: the session store answers again')))
})

test('createRecoveryJournal :: past the byte bound messages are not recorded (a resume across them is a gap); a refused write lets the session go', async () => {
  const { store, journal, session, fire, moved } = setup({ maxPendingBytes: 40 })
  journal.changed(session)
  session.number('{"event":"n","data":1}')
  session.number('{"event":"n","data":2}')
  await fire()
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1])
  assert.equal(await store.readSince('s1', 0), { _tag: 'Frames', frames: store.frames.get('s1') ?? [] })
  store.sessions.set('s1', { ...(store.sessions.get('s1') as SessionRecord), node: 'b' })
  session.number('{"event":"n","data":3}')
  await fire()
  assert.equal(moved, ['s1'])
  session.number('{"event":"n","data":4}')
  await fire()
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1], 'nothing written over the new holder')
})

test('createRecoveryJournal :: past the byte bound with the store answering: said once, and the count said when a flush drops none', async () => {
  const { store, journal, session, fire, entries } = setup({ maxPendingBytes: 40 })
  journal.changed(session)
  for (let i = 1; i <= 4; i++) session.number(`{"event":"n","data":${i}}`)
  const warnings = entries.filter((e) => e.level === 'warning')
  assert.is(warnings.length, 1)
  assert.ok(warnings[0]?.message.startsWith('recovery: more than {bytes} bytes of messages wait'))
  assert.is(warnings[0]?.context['bytes'], 40)
  await fire()
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1])
  const said = entries.filter((e) => e.level === 'info' && e.message.startsWith('recovery: the session store caught up'))
  assert.equal(said.map((e) => e.context['lost']), [3])
  session.number('{"event":"n","data":5}')
  await fire()
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1, 5], 'recorded again once there is room (a resume across 2…4 is a gap)')
  assert.is(entries.filter((e) => e.level === 'warning').length, 1, 'nothing more said')
})

test('createRecoveryJournal :: forget deletes the session (while this node holds it); a store that hangs is a failure within the bound', async () => {
  const { store, journal, session, fire } = setup()
  journal.changed(session)
  await fire()
  journal.forget(session)
  await new Promise((resolve) => setTimeout(resolve, 1))
  assert.not.ok(store.sessions.has('s1'))
  const other = setup()
  other.journal.changed(other.session)
  other.store.mode = 'hang'
  await other.fire() // the flush starts and waits
  await other.fire() // its time bound fires
  assert.ok(other.entries.some((e) => e.level === 'warning' && String(e.context['error']).includes('no answer within 100 ms')))
  other.store.mode = 'ok'
  await other.journal.close()
  assert.ok(other.store.sessions.has('s1'))
})

test('createRecoveryJournal :: a flush writes its sessions in slices a macrotask apart; the record of a session never names a number its frames lack', async () => {
  const { store, journal, fire, pending } = setup({ sliceSize: 2 })
  const sessions = [1, 2, 3, 4, 5].map((i) => {
    const b = new ClientSession(`s${i}`, i, { windowMs: 1000, maxMessages: 100, maxAnswers: 8 })
    b.recorder = journal
    journal.changed(b)
    b.number('{"event":"n","data":1}')
    return b
  })
  await fire() // the flush starts: the first slice only
  assert.is(store.calls.length, 2)
  assert.is(pending.size, 2, 'the next slice waits for a macrotask (beside the flush bound)')
  // Numbered while the flush is under way: a session not written yet takes it in its write.
  ;(sessions[4] as ClientSession).number('{"event":"n","data":2}')
  ;(sessions[0] as ClientSession).number('{"event":"n","data":2}')
  await fire()
  assert.is(store.calls.length, 4)
  await fire()
  assert.is(store.calls.length, 5, 'one write per session')
  assert.equal(store.frames.get('s5')?.map((f) => f.seq), [1, 2])
  assert.is(store.sessions.get('s5')?.lastSeq, 2)
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1], 'written before its second message')
  assert.is(store.sessions.get('s1')?.lastSeq, 1)
  await fire() // the next flush: what came after s1's write
  assert.equal(store.frames.get('s1')?.map((f) => f.seq), [1, 2])
  assert.is(store.sessions.get('s1')?.lastSeq, 2)
  assert.is(store.calls.length, 6)
})

test('createRecoveryJournal :: writes answered one after another past timeoutMs are no failure; a store that answers none for timeoutMs is', async () => {
  const base = memoryRecoveryStore()
  const answers: (() => void)[] = []
  const store = { ...base, saveProgress: (record: SessionRecord) => new Promise<boolean>((resolve) => void answers.push(() => resolve((base.sessions.set(record.sid, record), true)))) }
  const { journal, fire, entries } = setup({ store })
  for (const i of [1, 2, 3]) {
    const b = new ClientSession(`s${i}`, i, { windowMs: 1000, maxMessages: 100, maxAnswers: 8 })
    b.recorder = journal
    journal.changed(b)
  }
  await fire() // the flush: three writes issued
  assert.is(answers.length, 3)
  answers[0]?.()
  await new Promise((resolve) => setTimeout(resolve, 1))
  await fire() // timeoutMs passed with an answer: the others keep waiting
  assert.not.ok(entries.some((e) => e.level === 'warning'), 'a store busy with the flush has not failed')
  answers[1]?.()
  await new Promise((resolve) => setTimeout(resolve, 1))
  await fire()
  await fire() // timeoutMs with no answer: the last write failed
  assert.ok(entries.some((e) => e.level === 'warning' && String(e.context['error']).includes('no answer within 100 ms')))
  assert.ok(base.sessions.has('s1') && base.sessions.has('s2') && !base.sessions.has('s3'))
})

test('createRecoveryJournal :: a session claimed, then dropped by the engine without a word (a restore undone), is held no more after a refresh; the store keeps it', async () => {
  // The engine's sessions: a restore that is undone after its claim (SessionRecovery.abandon)
  // takes the session out of them, and the journal is not told (the client will come back,
  // so its record stays in the store for the node it comes back to).
  const live = new Set<ClientSession>()
  const { store, journal, fire, refresh } = setup({ state: (session) => (live.has(session) ? { namespace: '/', rooms: [], data: {} } : undefined) })
  const cycles = 50
  for (let i = 1; i <= cycles; i++) {
    const session = new ClientSession(`r${i}`, 100 + i, { windowMs: 1000, maxMessages: 100, maxAnswers: 8 })
    session.recorder = journal
    live.add(session)
    assert.ok(await journal.claim(session))
    live.delete(session)
    refresh()
    await fire()
  }
  assert.is(journal.holding, 0, 'nothing held for sessions the engine let go')
  assert.is(store.sessions.size, cycles, 'their records are left for the node their clients come back to')
  await journal.close()
})

test('createRecoveryJournal :: sessions held stay as many as the engine holds over cycles of connect, away and forget', async () => {
  const live = new Set<ClientSession>()
  const { journal, fire, refresh } = setup({ state: (session) => (live.has(session) ? { namespace: '/', rooms: [], data: {} } : undefined) })
  for (let i = 1; i <= 50; i++) {
    const session = new ClientSession(`c${i}`, i, { windowMs: 1000, maxMessages: 100, maxAnswers: 8 })
    session.recorder = journal
    live.add(session)
    journal.changed(session)
    session.number('{"event":"n","data":1}')
    await fire()
    journal.away(session)
    await fire()
    if (i % 2 === 0) {
      live.delete(session)
      journal.forget(session)
    }
    refresh()
    await fire()
  }
  assert.is(journal.holding, 25, 'the away sessions not forgotten, and no more')
  await journal.close()
})

test.run()

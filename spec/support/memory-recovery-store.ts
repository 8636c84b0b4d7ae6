/**
 * A recovery store in memory (the `RecoveryStore` contract, lib/engine/recovery/recovery-store.ts),
 * with target logs the spec fills by hand, a switch that makes every call fail or hang, and
 * a count of calls: the engine's side of recovery is specified against it without Redis.
 * Several servers in one process share one instance as nodes share a Redis.
 */
import type { Sequence } from '../../lib/core/cluster/cluster-message.js'
import type { ClusterTarget } from '../../lib/engine/cluster/cluster-adapter.js'
import { cursorKey } from '../../lib/engine/recovery/cursor-key.js'
import type { MissedFrame, ReadRoomSince, ReadSince, RecoveryStore, RoomFrame, SessionRecord } from '../../lib/engine/recovery/recovery-store.js'

export interface MemoryRecoveryStore extends RecoveryStore {
  readonly sessions: Map<string, SessionRecord>
  readonly frames: Map<string, MissedFrame[]>
  /** Target logs by `cursorKey`; epoch 1. */
  readonly logs: Map<string, RoomFrame[]>
  /** Appends a broadcast to a target's log (as the Redis adapter does), answering its place. */
  log(target: ClusterTarget, frame: Uint8Array, origin: string): Sequence
  /** 'ok', every call rejects ('down'), or never settles ('hang'). */
  mode: 'ok' | 'down' | 'hang'
  readonly calls: string[]
}

export const memoryRecoveryStore = (maxFrames = 1000): MemoryRecoveryStore => {
  const sessions = new Map<string, SessionRecord>()
  const frames = new Map<string, MissedFrame[]>()
  const logs = new Map<string, RoomFrame[]>()
  const calls: string[] = []
  const self: MemoryRecoveryStore = {
    sessions,
    frames,
    logs,
    mode: 'ok',
    calls,
    log: (target, frame, origin) => {
      const list = logs.get(cursorKey(target)) ?? []
      const seq = { epoch: 1, n: list.length + 1 }
      list.push({ seq, frame, origin, envelope: true })
      logs.set(cursorKey(target), list)
      return seq
    },
    saveSession: (session) => gate('saveSession', () => void sessions.set(session.sid, session)),
    loadSession: (sid) => gate('loadSession', () => sessions.get(sid)),
    append: (sid, seq, frame) =>
      gate('append', () => {
        const list = frames.get(sid) ?? []
        if (list.every((f) => f.seq < seq)) list.push({ seq, frame })
        frames.set(sid, list.slice(-maxFrames))
      }),
    readSince: (sid, afterSeq) =>
      gate('readSince', (): ReadSince => {
        if (!sessions.has(sid)) return { _tag: 'Resync', reason: 'unknown_session' }
        const list = frames.get(sid) ?? []
        const after = list.filter((f) => f.seq > afterSeq)
        const first = after[0]
        if (first !== undefined && first.seq !== afterSeq + 1) return { _tag: 'Resync', reason: 'gap' }
        return { _tag: 'Frames', frames: after }
      }),
    deleteSession: (sid, node) =>
      gate('deleteSession', () => {
        const current = sessions.get(sid)
        if (node !== undefined && current?.node !== undefined && current.node !== node) return
        sessions.delete(sid)
        frames.delete(sid)
      }),
    saveProgress: (session, list, claim = false) =>
      gate('saveProgress', () => {
        const current = sessions.get(session.sid)
        if (!claim && current?.node !== undefined && current.node !== session.node) return false
        const kept = (frames.get(session.sid) ?? []).filter((f) => !claim || f.seq <= session.lastSeq)
        for (const f of list) if (kept.every((k) => k.seq < f.seq)) kept.push(f)
        frames.set(session.sid, kept.slice(-maxFrames))
        sessions.set(session.sid, session)
        return true
      }),
    readTargetSince: (target, after) =>
      gate('readTargetSince', (): ReadRoomSince => {
        const list = logs.get(cursorKey(target)) ?? []
        const rest = list.filter((f) => f.seq.n > after.n)
        return { _tag: 'Frames', frames: rest }
      }),
    targetPosition: (target) => gate('targetPosition', () => ({ epoch: 1, n: (logs.get(cursorKey(target)) ?? []).length })),
  }
  function gate<A>(name: string, run: () => A): Promise<A> {
    calls.push(name)
    if (self.mode === 'down') return Promise.reject(new Error('store down'))
    if (self.mode === 'hang') return new Promise<A>(() => undefined)
    return Promise.resolve().then(run)
  }
  return self
}

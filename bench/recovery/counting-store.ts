/**
 * A recovery store that counts what the journal asks of the store it wraps
 * (`bench/recovery/node.ts`): `saveProgress` calls, the frames and bytes in them, how many
 * were in flight at once, the flushes (a call started while none was in flight), failures
 * and refusals, and when the last call settled; and it says when the journal has gone
 * quiet. Every other method is the wrapped store's own. No `node:*` imports.
 */
import type { RecoveryStore } from '../../lib/engine/recovery/recovery-store.js'

/** What the journal wrote since the last reset. */
export interface StoreCounts {
  readonly calls: number
  readonly frames: number
  readonly frameBytes: number
  /** Runs of calls with none in flight before them: the journal's flushes, as the store sees them. */
  readonly flushes: number
  readonly maxInFlight: number
  readonly inFlight: number
  readonly failed: number
  /** Calls answered false (another node holds the session). */
  readonly refused: number
  /** The longest a call took (ms). */
  readonly slowestMs: number
  /** When the first call started and the last settled (the clock given; NaN when none). */
  readonly firstAt: number
  readonly lastDoneAt: number
}

export interface CountingStore {
  readonly store: RecoveryStore
  counts(): StoreCounts
  reset(): void
  /** Resolves when nothing has been in flight or started for `quietMs`, or after `maxMs`; true when quiet. */
  quiet(quietMs: number, maxMs: number): Promise<boolean>
}

const ZERO: StoreCounts = { calls: 0, frames: 0, frameBytes: 0, flushes: 0, maxInFlight: 0, inFlight: 0, failed: 0, refused: 0, slowestMs: 0, firstAt: Number.NaN, lastDoneAt: Number.NaN }

/**
 * Wraps `inner` (which must have `saveProgress`) so its `saveProgress` calls are counted.
 *
 * @example
 * const counted = countingStore(redisRecoveryStore({ url }), () => performance.timeOrigin + performance.now())
 * runServer({ recovery: { store: counted.store }, … })
 * counted.counts().calls
 */
export const countingStore = (inner: RecoveryStore, now: () => number, sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms))): CountingStore => {
  const save = inner.saveProgress?.bind(inner)
  if (save === undefined) throw new Error('countingStore: the store has no saveProgress')
  let c = { ...ZERO }
  let inFlight = 0
  let lastActivity = now()
  const store: RecoveryStore = {
    ...inner,
    saveProgress: async (session, frames, claim) => {
      if (inFlight === 0) c.flushes += 1
      inFlight += 1
      lastActivity = now()
      c.calls += 1
      c.frames += frames.length
      for (const f of frames) c.frameBytes += f.frame.length
      c.maxInFlight = Math.max(c.maxInFlight, inFlight)
      if (Number.isNaN(c.firstAt)) c.firstAt = lastActivity
      const started = lastActivity
      try {
        const ok = await save(session, frames, claim)
        if (!ok) c.refused += 1
        return ok
      } catch (error) {
        c.failed += 1
        throw error
      } finally {
        inFlight -= 1
        lastActivity = now()
        c.lastDoneAt = lastActivity
        c.slowestMs = Math.max(c.slowestMs, lastActivity - started)
      }
    },
  }
  return {
    store,
    counts: () => ({ ...c, inFlight }),
    // Also starts the quiet period again: a flush due soon after a reset is waited for.
    reset: () => {
      c = { ...ZERO }
      lastActivity = now()
    },
    quiet: async (quietMs, maxMs) => {
      const deadline = now() + maxMs
      while (now() < deadline) {
        if (inFlight === 0 && now() - lastActivity >= quietMs) return true
        await sleep(Math.min(quietMs, 10))
      }
      return false
    },
  }
}

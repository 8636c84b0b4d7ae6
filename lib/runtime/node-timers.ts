/**
 * `nodeTimers`: the engine's `Timers` on Node's timer API (Bun's is the same), unref'd so a
 * server's timers never keep the process alive on their own; `afterIo` is `setImmediate`.
 * Part of the shared runtime layer (lib/runtime/): imports the engine's types only, never
 * an adapter.
 */
import type { Timers } from '../engine/platform.js'

/** Timers that never hold the process open. */
export const nodeTimers: Timers = {
  now: Date.now,
  setTimeout: (run, ms) => setTimeout(run, ms).unref(),
  clearTimeout: (id) => clearTimeout(id as NodeJS.Timeout),
  setInterval: (run, ms) => setInterval(run, ms).unref(),
  clearInterval: (id) => clearInterval(id as NodeJS.Timeout),
  afterIo: (run) => void setImmediate(run),
}

/**
 * `openFileLimit`: the process's open-file limit (the soft `RLIMIT_NOFILE`), where the
 * runtime lets a program read it. None of Node, Bun or Deno has an API for it; on Linux the
 * kernel shows it in `/proc/self/limits` ("Max open files"), which this reads once, guarded:
 * elsewhere, unreadable, or "unlimited" answers `undefined` (the engine then keeps its fixed
 * default). Part of the shared runtime layer (lib/runtime/): `node:fs` only, never an adapter.
 */
import { readFileSync } from 'node:fs'

/** The soft limit from the text of `/proc/self/limits`, or `undefined`. */
export const parseOpenFileLimit = (limits: string): number | undefined => {
  const line = /^Max open files\s+(\S+)\s+(\S+)/m.exec(limits)
  if (line === null) return undefined
  const soft = Number(line[1])
  return Number.isSafeInteger(soft) && soft > 0 ? soft : undefined
}

/** This process's open-file limit on Linux; `undefined` where it cannot be read (no `/proc`: another OS). */
export const openFileLimit = (): number | undefined => {
  try {
    return parseOpenFileLimit(readFileSync('/proc/self/limits', 'latin1'))
  } catch {
    return undefined
  }
}

/**
 * `fitToFdLimit`: `maxConnections` against the process's open-file limit (issue 31). Every
 * connection holds a file descriptor; past the limit the runtime cannot accept (EMFILE), and
 * Node's libuv then accepts and closes connections without telling the program. So where the
 * platform can read the limit, `maxConnections`'s default follows it (the limit less a
 * reserve for the listener, log files, Redis and static files: `FD_RESERVE`), and a
 * `maxConnections` set above that gets a start-up warning. Pure: no `node:*`, Buffer or process.
 */
import type { Limits } from './limits.js'

/** Descriptors kept for the rest of the process: 1 % of the limit, at least 64. */
export const fdReserve = (fdLimit: number): number => Math.max(64, Math.ceil(fdLimit / 100))

/** The connections a process with `fdLimit` open files can hold: the limit less the reserve, at least 1. */
export const connectionsFor = (fdLimit: number): number => Math.max(1, fdLimit - fdReserve(fdLimit))

/** The limits to run with, and the warning to log at start-up, if any. */
export interface FdFit {
  readonly limits: Limits
  readonly warning: string | undefined
}

/**
 * `limits` fitted to `fdLimit` (`undefined`: unknown, nothing changes). `explicit`: the
 * application set `maxConnections` itself (kept, with a warning when above the limit).
 */
export const fitToFdLimit = (limits: Limits, explicit: boolean, fdLimit: number | undefined): FdFit => {
  if (fdLimit === undefined) return { limits, warning: undefined }
  const fits = connectionsFor(fdLimit)
  if (!explicit) return { limits: { ...limits, maxConnections: fits }, warning: undefined }
  if (limits.maxConnections <= fits) return { limits, warning: undefined }
  return {
    limits,
    warning: `maxConnections ${limits.maxConnections} is above what the open-file limit ${fdLimit} allows (${fits}, ${fdReserve(fdLimit)} kept for other files): raise the limit (ulimit -n, LimitNOFILE) or connections past it fail at accept`,
  }
}

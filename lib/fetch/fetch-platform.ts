/**
 * `fetchPlatform`: the engine's `Platform` for a host that brings requests without sockets
 * (`toFetch` under `Bun.serve`, `Deno.serve`, Workers, a Hono app). No socket is ever accepted,
 * so the socket operations are never called; the timers are the global web ones, reached only
 * when a request needs one (nothing at creation: Workers allow timers only inside a request),
 * and never keeping a process alive (`unref` where the runtime has it). The default logger
 * writes formatted lines to `console`.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import { formatMessage } from '../core/log/format-message.js'
import { LEVEL_PRIORITY, LogLevel } from '../core/log/log-level.js'
import type { Logger } from '../core/log/logger.js'
import { makeLogger } from '../core/log/make-logger.js'
import { portableFrames } from '../engine/delivery/outgoing.js'
import type { Platform, TimerId } from '../engine/platform.js'

// A timer that does not hold the process open, where the runtime can say so (Node, Bun, Deno).
const unref = (id: TimerId): TimerId => {
  const handle = id as { unref?: () => void } | number
  if (typeof handle === 'object' && typeof handle.unref === 'function') handle.unref()
  else if (typeof handle === 'number') (globalThis as { Deno?: { unrefTimer?: (id: number) => void } }).Deno?.unrefTimer?.(handle)
  return id
}

// What a socket-free host never calls: there is no socket.
const nothing = (): undefined => undefined

const consoleLogger = (debug: boolean): Logger =>
  makeLogger(
    (entry) => {
      const line = formatMessage(entry.level, entry.message, entry.context, new Date())
      if (LEVEL_PRIORITY[entry.level] >= LEVEL_PRIORITY.error) console.error(line)
      else console.log(line)
    },
    debug ? LogLevel.DEBUG : LogLevel.INFO,
  )

/**
 * The platform of `toFetch`.
 *
 * @example
 * const engine = createEngine({ routes }, fetchPlatform)
 * engine.embedded.claims('GET', '/hello')
 */
export const fetchPlatform: Platform<never> = {
  io: {
    write: nothing,
    buffered: () => 0,
    isClosed: () => true,
    isEnded: () => true,
    end: nothing,
    destroy: nothing,
    cork: nothing,
    uncork: nothing,
    pause: nothing,
    resume: nothing,
  },
  timers: {
    now: () => Date.now(),
    setTimeout: (run, ms) => unref(setTimeout(run, ms)),
    clearTimeout: (id) => clearTimeout(id as ReturnType<typeof setTimeout>),
    setInterval: (run, ms) => unref(setInterval(run, ms)),
    clearInterval: (id) => clearInterval(id as ReturnType<typeof setInterval>),
    afterIo: (run) => void setTimeout(run, 0),
  },
  frames: portableFrames,
  allocate: (size) => new Uint8Array(size),
  defaultLogger: consoleLogger,
}

/**
 * `recordErrors`: the logger and the instrumentation of a server, each passing what it is told
 * on unchanged and also keeping the last errors in the server's `ErrorRing` for the admin page:
 * log lines at warning level and above, and error events sent to clients (by code). The
 * `Instrumentation` interface is implemented, not changed. Must not import `node:*`, Buffer or
 * process.
 */
import type { ErrorRing } from '../../core/metrics/error-ring.js'
import type { LogLevel } from '../../core/log/log-level.js'
import type { LogContext, Logger } from '../../core/log/logger.js'
import type { EventEnd, Instrumentation } from '../instrumentation/instrumentation.js'

const SEVERE: ReadonlySet<LogLevel> = new Set<LogLevel>(['emergency', 'alert', 'critical', 'error'])

// `{name}` placeholders filled from the context, as the default logger writes them.
const interpolate = (message: string, context: LogContext | undefined): string =>
  context === undefined ? message : message.replace(/\{([A-Za-z0-9_.]+)\}/g, (whole, key: string) => (key in context ? String(context[key]) : whole))

/**
 * `logger`, also keeping its warning-and-above lines in `ring`.
 *
 * @example
 * const logger = recordingLogger(guardLogger(base), ring, () => timers.now())
 */
export const recordingLogger = (logger: Logger, ring: ErrorRing, now: () => number): Logger => {
  const keep = (level: LogLevel, message: string, context: LogContext | undefined): void => {
    if (level === 'warning' || SEVERE.has(level)) ring.push({ at: now(), kind: level === 'warning' ? 'warning' : 'error', message: interpolate(message, context) })
  }
  const method =
    (level: LogLevel) =>
    (message: string, context?: LogContext): void => {
      keep(level, message, context)
      logger[level](message, context)
    }
  return {
    emergency: method('emergency'),
    alert: method('alert'),
    critical: method('critical'),
    error: method('error'),
    warning: method('warning'),
    notice: (message, context) => logger.notice(message, context),
    info: (message, context) => logger.info(message, context),
    debug: (message, context) => logger.debug(message, context),
    log: (level, message, context) => {
      keep(level, message, context)
      logger.log(level, message, context)
    },
    exception: (error, context) => {
      ring.push({ at: now(), kind: 'error', message: error instanceof Error ? `${error.name}: ${error.message}` : String(error) })
      logger.exception(error, context)
    },
  }
}

/**
 * `inner`, also keeping the error events it is told of (a failed dispatch, a rejected message)
 * in `ring`. Only for an active instrumentation: the no-op stays a no-op (hot paths skip it).
 *
 * @example
 * const instrumentation = recordingInstrumentation(metrics.instrumentation, ring, () => timers.now())
 */
export const recordingInstrumentation = (inner: Instrumentation, ring: ErrorRing, now: () => number): Instrumentation => {
  if (!inner.active) return inner
  // Every other member is the inner one's: copied from a plain object (the hot paths' calls
  // stay own-property reads), reached through the prototype otherwise (a class's methods).
  const recording: Instrumentation = Object.getPrototypeOf(inner) === Object.prototype ? { ...inner } : (Object.create(inner) as Instrumentation)
  return Object.assign(recording, {
    eventSettled: (event: string, end: EventEnd, code: string | undefined, started: number): void => {
      if (end === 'error') ring.push({ at: now(), kind: 'event', message: `${code ?? 'error'} (event ${event})` })
      inner.eventSettled(event, end, code, started)
    },
    inputRejected: (code: string): void => {
      ring.push({ at: now(), kind: 'event', message: `${code} (no route took the message)` })
      inner.inputRejected(code)
    },
  })
}

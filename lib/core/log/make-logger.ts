/**
 * `makeLogger`: a Logger from one write function and a minimum level. The filtering and
 * the `exception` convention live here; the sink (console, files, memory in tests) does
 * the effect. Pure and portable: no node:* imports.
 */
import { LogLevel } from './log-level.js'
import type { LogContext, LogEntry, Logger, LogMethod } from './logger.js'
import { shouldLog } from './should-log.js'

// The message of anything thrown, without ever throwing itself.
const messageOf = (error: unknown): string => {
  if (error instanceof Error) return error.message === '' ? error.name : error.message
  if (typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string') return error.message
  try {
    return String(error)
  } catch {
    return 'unprintable error'
  }
}

/**
 * Entries below `min` are dropped before `write` is called.
 *
 * @example
 * const lines: string[] = []
 * const logger = makeLogger((e) => lines.push(e.message), 'info')
 * logger.debug('dropped'); logger.info('kept') // lines: ['kept']
 */
export const makeLogger = (write: (entry: LogEntry) => void, min: LogLevel = LogLevel.DEBUG): Logger => {
  const log = (level: LogLevel, message: string, context: LogContext = {}): void => {
    if (shouldLog(min, level)) write({ level, message, context })
  }
  const at =
    (level: LogLevel): LogMethod =>
    (message, context) =>
      log(level, message, context)
  return {
    emergency: at(LogLevel.EMERGENCY),
    alert: at(LogLevel.ALERT),
    critical: at(LogLevel.CRITICAL),
    error: at(LogLevel.ERROR),
    warning: at(LogLevel.WARNING),
    notice: at(LogLevel.NOTICE),
    info: at(LogLevel.INFO),
    debug: at(LogLevel.DEBUG),
    log,
    exception: (error, context = {}) => log(LogLevel.ERROR, messageOf(error), { ...context, exception: error }),
  }
}

/**
 * A logger that cannot throw: the application may plug in any logger, and a sink that
 * fails (a closed file, a bug in an adapter) must not take a connection, or the server,
 * down with it. Failures of the sink itself are dropped.
 */
import type { LogContext, Logger } from '../../core/log/logger.js'
import { getLevels } from '../../core/log/get-levels.js'
import type { LogLevel } from '../../core/log/log-level.js'


export const guardLogger = (logger: Logger): Logger => {
  const guard =
    <A extends unknown[]>(call: (...args: A) => void) =>
    (...args: A): void => {
      try {
        call(...args)
      } catch {
        // The sink failed; there is nowhere left to report it.
      }
    }
  const levels = Object.fromEntries(getLevels().map((level) => [level, guard((message: string, context?: LogContext) => logger[level](message, context))]))
  return {
    ...(levels as Pick<Logger, LogLevel>),
    log: guard((level: LogLevel, message: string, context?: LogContext) => logger.log(level, message, context)),
    exception: guard((error: unknown, context?: LogContext) => logger.exception(error, context)),
  }
}

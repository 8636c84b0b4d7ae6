/**
 * The logger contract (seed §2.12 `LoggerInterface`, PSR-3). Any object with these
 * methods can replace the default logger (a pino adapter is a few lines). Types only.
 */
import type { LogLevel } from './log-level.js'

/** Values for `{placeholder}` interpolation and extra facts; `exception` holds an error. */
export type LogContext = { readonly [key: string]: unknown }

/** One level method. */
export type LogMethod = (message: string, context?: LogContext) => void

export interface Logger {
  readonly emergency: LogMethod
  readonly alert: LogMethod
  readonly critical: LogMethod
  readonly error: LogMethod
  readonly warning: LogMethod
  readonly notice: LogMethod
  readonly info: LogMethod
  readonly debug: LogMethod
  /** Logs at a level chosen at run time. */
  log(level: LogLevel, message: string, context?: LogContext): void
  /** Logs at error level with the error's message, and its stack under `context.exception`. */
  exception(error: unknown, context?: LogContext): void
}

/** What a sink receives from `makeLogger`: one entry that passed the minimum level. */
export interface LogEntry {
  readonly level: LogLevel
  readonly message: string
  readonly context: LogContext
}

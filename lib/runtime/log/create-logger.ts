/**
 * `createLogger`: the default Logger (seed §2.12 `Logger`): console lines with ANSI
 * colours per level (only on a TTY unless forced) and, when a directory is given, files —
 * one a day, optionally one per level too — appended through `fs.createWriteStream`, so
 * writes never block the event loop. This is the shell: node:* imports are fine here.
 * Part of the shared runtime layer (lib/runtime/): the default logger of all three adapters (Bun and Deno provide `node:fs`); imports
 * the core and `node:*`, never an adapter.
 */
import { createWriteStream, mkdirSync, type WriteStream } from 'node:fs'
import { join } from 'node:path'
import { formatMessage } from '../../core/log/format-message.js'
import { LogLevel } from '../../core/log/log-level.js'
import type { LogEntry, Logger } from '../../core/log/logger.js'
import { makeLogger } from '../../core/log/make-logger.js'
import { shouldLog } from '../../core/log/should-log.js'
import { colorize } from './ansi-colors.js'

/** Where console lines go; `process.stdout` and `process.stderr` fit. */
export interface ConsoleStream {
  write(text: string): unknown
  readonly isTTY?: boolean
}

export interface LoggerOptions {
  /** Entries below this level are dropped (default `debug`, as in the seed). */
  readonly minLevel?: LogLevel
  /** Write to the console (default true): error and above to `stderr`, the rest to `stdout`. */
  readonly console?: boolean
  /**
   * Write files into this directory (created if missing). No directory, no files: the
   * seed's `logToFile = true` default would litter the working directory.
   */
  readonly directory?: string
  /** Also one file per level, `<level>-YYYY-MM-DD.log`, beside the daily `YYYY-MM-DD.log`. */
  readonly separateFiles?: boolean
  /** Force colours on or off; by default they are on when the console stream is a TTY. */
  readonly colors?: boolean
  readonly stdout?: ConsoleStream
  readonly stderr?: ConsoleStream
  /** The clock (default `() => new Date()`); days are UTC dates. */
  readonly now?: () => Date
}

/** The default logger, plus `close` to flush and end its files (at shutdown, in tests). */
export interface NodeLogger extends Logger {
  close(): Promise<void>
}

const dayOf = (date: Date): string => (Number.isNaN(date.getTime()) ? 'invalid-date' : date.toISOString().slice(0, 10))

/**
 * Builds the default logger.
 *
 * @example
 * const logger = createLogger({ minLevel: 'info', directory: 'logs' })
 * logger.info('listening on {port}', { port: 6001 })
 */
export const createLogger = (options: LoggerOptions = {}): NodeLogger => {
  const stdout = options.stdout ?? process.stdout
  const stderr = options.stderr ?? process.stderr
  const now = options.now ?? ((): Date => new Date())
  const directory = options.directory
  if (directory !== undefined) mkdirSync(directory, { recursive: true })

  const streams = new Map<string, WriteStream>()
  let failed = false
  let day = ''
  // The previous days' files still being flushed: `close` waits for them too.
  let finishing: Promise<void> = Promise.resolve()

  const endAll = (which: readonly WriteStream[]): Promise<void> =>
    Promise.all(which.map((s) => new Promise<void>((resolve) => (s.closed || s.destroyed ? resolve() : s.end(resolve))))).then(() => undefined)

  const streamFor = (dir: string, name: string): WriteStream | undefined => {
    const existing = streams.get(name)
    if (existing !== undefined) return existing
    const stream = createWriteStream(join(dir, name), { flags: 'a' })
    stream.on('error', (error) => {
      streams.delete(name)
      // Report a broken file sink once on the console, then keep logging there only.
      if (!failed) stderr.write(`[logger] cannot write ${join(dir, name)}: ${String(error)}\n`)
      failed = true
    })
    streams.set(name, stream)
    return stream
  }

  const toFiles = (entry: LogEntry, line: string, today: string): void => {
    if (directory === undefined || failed) return
    if (today !== day) {
      // A new day: the files of the previous one are finished.
      const previous = endAll([...streams.values()])
      finishing = Promise.all([finishing, previous]).then(() => undefined)
      streams.clear()
      day = today
    }
    streamFor(directory, `${today}.log`)?.write(`${line}\n`)
    if (options.separateFiles === true) streamFor(directory, `${entry.level}-${today}.log`)?.write(`${line}\n`)
  }

  const toConsole = (entry: LogEntry, line: string): void => {
    if (options.console === false) return
    const stream = shouldLog(LogLevel.ERROR, entry.level) ? stderr : stdout
    const colors = options.colors ?? stream.isTTY === true
    stream.write(`${colors ? colorize(entry.level, line) : line}\n`)
  }

  const write = (entry: LogEntry): void => {
    const date = now()
    const line = formatMessage(entry.level, entry.message, entry.context, date)
    toConsole(entry, line)
    toFiles(entry, line, dayOf(date))
  }

  return {
    ...makeLogger(write, options.minLevel ?? LogLevel.DEBUG),
    close: () => {
      const open = [...streams.values()]
      streams.clear()
      return Promise.all([finishing, endAll(open)]).then(() => undefined)
    },
  }
}

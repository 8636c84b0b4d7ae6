/**
 * `formatMessage`: one log line from a level, a message, a context and a timestamp given
 * by the caller (seed §2.12). Pure and portable: no clock, no node:* imports.
 *
 * Shape: `[2024-05-01T12:00:00.000Z] WARNING: message {"context":"as JSON"}`, then the
 * stack of `context.exception` on the following lines when it has one.
 */
import type { LogLevel } from './log-level.js'
import type { LogContext } from './logger.js'
import { safeJson } from './safe-json.js'

// PSR-3 §1.2: placeholder names are A-Z, a-z, 0-9, underscore and period, in braces.
const PLACEHOLDER = /\{([A-Za-z0-9_.]+)\}/g

const hasOwn = (record: LogContext, key: string): boolean => Object.prototype.hasOwnProperty.call(record, key)

const show = (value: unknown): string | undefined => {
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value)
  if (value === null) return 'null'
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? 'Invalid Date' : value.toISOString()
  if (value instanceof Error) return value.message
  return safeJson(value)
}

const stamp = (timestamp: Date | string): string => {
  if (typeof timestamp === 'string') return timestamp
  return Number.isNaN(timestamp.getTime()) ? 'Invalid Date' : timestamp.toISOString()
}

const stackOf = (value: unknown): string | undefined =>
  typeof value === 'object' && value !== null && 'stack' in value && typeof value.stack === 'string' ? value.stack : undefined

/**
 * Interpolates `{key}` from the context (placeholders without a value stay as written),
 * appends the context as JSON when not empty, and the stack of `context.exception`.
 *
 * @example
 * formatMessage('info', 'hello {user}', { user: 'ada' }, '2024-05-01T12:00:00.000Z')
 * // '[2024-05-01T12:00:00.000Z] INFO: hello ada {"user":"ada"}'
 */
export const formatMessage = (level: LogLevel, message: string, context: LogContext, timestamp: Date | string): string => {
  const text = message.replace(PLACEHOLDER, (whole, key: string) => (hasOwn(context, key) ? (show(context[key]) ?? whole) : whole))
  const stack = stackOf(context.exception)
  const rest: Record<string, unknown> = {}
  for (const key of Object.keys(context)) if (!(key === 'exception' && stack !== undefined)) rest[key] = context[key]
  const json = Object.keys(rest).length === 0 ? undefined : safeJson(rest)
  const line = `[${stamp(timestamp)}] ${level.toUpperCase()}: ${text}${json === undefined ? '' : ` ${json}`}`
  return stack === undefined ? line : `${line}\n${stack}`
}

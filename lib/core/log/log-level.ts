/**
 * The eight PSR-3 / RFC 5424 severities (seed §2.12 `LogLevel`) as constants and a type.
 * Pure and portable: no node:* imports.
 */

/** Level names, as PSR-3 spells them. */
export const LogLevel = Object.freeze({
  EMERGENCY: 'emergency',
  ALERT: 'alert',
  CRITICAL: 'critical',
  ERROR: 'error',
  WARNING: 'warning',
  NOTICE: 'notice',
  INFO: 'info',
  DEBUG: 'debug',
} as const)

/** One of the level names. */
export type LogLevel = (typeof LogLevel)[keyof typeof LogLevel]

/**
 * Numeric priorities, debug lowest (0) to emergency highest (7): the reverse of RFC 5424
 * §6.2.1 numbering, so that "at least as severe" reads `>=`. The seed leaves them open.
 */
export const LEVEL_PRIORITY: { readonly [L in LogLevel]: number } = Object.freeze({
  debug: 0,
  info: 1,
  notice: 2,
  warning: 3,
  error: 4,
  critical: 5,
  alert: 6,
  emergency: 7,
})

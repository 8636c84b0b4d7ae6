/** `shouldLog`: whether a level passes a minimum level (seed §2.12). Pure and portable. */
import type { LogLevel } from './log-level.js'
import { toInt } from './to-int.js'

/**
 * True when `level` is at least as severe as `min`.
 *
 * @example
 * shouldLog('warning', 'error') // true
 * shouldLog('warning', 'info')  // false
 */
export const shouldLog = (min: LogLevel, level: LogLevel): boolean => toInt(level) >= toInt(min)

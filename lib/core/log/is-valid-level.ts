/** `isValidLevel`: whether a string names a level (seed §2.12). Pure and portable. */
import { LEVEL_PRIORITY, type LogLevel } from './log-level.js'

/**
 * True for the eight lower-case names only (`'error'`, not `'ERROR'`).
 *
 * @example
 * isValidLevel('warning') // true
 */
export const isValidLevel = (level: string): level is LogLevel => Object.prototype.hasOwnProperty.call(LEVEL_PRIORITY, level)

/** `toInt`: a level's numeric priority (seed §2.12). Pure and portable. */
import { LEVEL_PRIORITY, type LogLevel } from './log-level.js'

/**
 * Debug 0 up to emergency 7.
 *
 * @example
 * toInt('error') // 4
 */
export const toInt = (level: LogLevel): number => LEVEL_PRIORITY[level]

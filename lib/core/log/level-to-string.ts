/**
 * `levelToString`: the level of a numeric priority (seed §2.12 `LogLevel::toString`,
 * renamed so it does not shadow `Object.prototype.toString`). Pure and portable.
 */
import { getLevels } from './get-levels.js'
import type { LogLevel } from './log-level.js'
import { toInt } from './to-int.js'

/**
 * The level with this priority, or `undefined` for any other number.
 *
 * @example
 * levelToString(7) // 'emergency'
 */
export const levelToString = (priority: number): LogLevel | undefined => getLevels().find((level) => toInt(level) === priority)

/** `getLevels`: every level name, most severe first (seed §2.12). Pure and portable. */
import { LogLevel } from './log-level.js'

const LEVELS: readonly LogLevel[] = Object.freeze(Object.values(LogLevel))

/**
 * The eight level names from emergency down to debug.
 *
 * @example
 * getLevels()[0] // 'emergency'
 */
export const getLevels = (): readonly LogLevel[] => LEVELS

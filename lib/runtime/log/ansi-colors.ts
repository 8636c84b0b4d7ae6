/**
 * The ANSI SGR colour of each level for the console sink (ECMA-48 §8.3.117).
 * Portable data, kept in the shell because only the console uses it. Part of the shared runtime layer (lib/runtime/):
 * imports the core only, never an adapter.
 */
import type { LogLevel } from '../../core/log/log-level.js'

/** SGR parameters per level: severity grows from grey to white on red. */
export const LEVEL_COLORS: { readonly [L in LogLevel]: string } = {
  debug: '90',
  info: '32',
  notice: '36',
  warning: '33',
  error: '31',
  critical: '1;31',
  alert: '1;35',
  emergency: '1;97;41',
}

/** Wraps a line in the level's colour and a reset. */
export const colorize = (level: LogLevel, line: string): string => `\u001b[${LEVEL_COLORS[level]}m${line}\u001b[0m`

/**
 * `resolveDeflateConfig`: the server's permessage-deflate option (`true`, `false`, or a
 * partial settings object) checked and completed with the defaults, once at start-up.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { DEFAULT_DEFLATE_CONFIG, type DeflateConfig, type DeflateOptions } from './deflate-config.js'
import { type InvalidDeflateOption, invalidDeflateOption } from './extension-error.js'

const isIntIn = (value: number, min: number, max: number): boolean => Number.isInteger(value) && value >= min && value <= max

// Each numeric option, what it accepts, as a check and its text.
const RANGES: ReadonlyArray<readonly [keyof DeflateConfig, (v: number) => boolean, string]> = [
  // RFC 7692 §7.1.2: window bits are "between 8 to 15, inclusive".
  ['serverMaxWindowBits', (v) => isIntIn(v, 8, 15), 'an integer from 8 to 15'],
  ['clientMaxWindowBits', (v) => isIntIn(v, 8, 15), 'an integer from 8 to 15'],
  ['threshold', (v) => isIntIn(v, 0, Number.MAX_SAFE_INTEGER), 'an integer of 0 or more'],
  ['level', (v) => isIntIn(v, 0, 9), 'an integer from 0 to 9'],
  ['memLevel', (v) => isIntIn(v, 1, 9), 'an integer from 1 to 9'],
  ['concurrency', (v) => v === Infinity || isIntIn(v, 1, Number.MAX_SAFE_INTEGER), 'an integer of 1 or more, or Infinity'],
]

const FLAGS: ReadonlyArray<keyof DeflateConfig> = Object.freeze(['enabled', 'serverNoContextTakeover', 'clientNoContextTakeover'])

/**
 * `undefined` or `false`: compression off. `true`: on, with the defaults. An object: on
 * (unless it says `enabled: false`), its fields over the defaults. `Left` names the first
 * option out of range, or a field that is no option (a typo would otherwise go unnoticed).
 *
 * @example
 * resolveDeflateConfig({ threshold: 256 })  // Right({ ...DEFAULT_DEFLATE_CONFIG, enabled: true, threshold: 256 })
 * resolveDeflateConfig({ memLevel: 10 })    // Left(InvalidDeflateOption memLevel)
 */
export const resolveDeflateConfig = (options: boolean | DeflateOptions | undefined): E.Either<InvalidDeflateOption, DeflateConfig> => {
  if (options === undefined || options === false) return E.right(DEFAULT_DEFLATE_CONFIG)
  if (options === true) return E.right({ ...DEFAULT_DEFLATE_CONFIG, enabled: true })
  for (const name of Object.keys(options)) {
    if (!(name in DEFAULT_DEFLATE_CONFIG)) return E.left(invalidDeflateOption(name, (options as Record<string, unknown>)[name], 'a known option'))
  }
  const config: DeflateConfig = { ...DEFAULT_DEFLATE_CONFIG, enabled: true, ...withoutUndefined(options) }
  for (const name of FLAGS) {
    if (typeof config[name] !== 'boolean') return E.left(invalidDeflateOption(name, config[name], 'true or false'))
  }
  for (const [name, ok, expected] of RANGES) {
    const value = config[name]
    if (typeof value !== 'number' || !ok(value)) return E.left(invalidDeflateOption(name, value, expected))
  }
  return E.right(config)
}

// `{ threshold: undefined }` means "the default", as if the field were left out.
const withoutUndefined = (options: DeflateOptions): DeflateOptions =>
  Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined)) as DeflateOptions

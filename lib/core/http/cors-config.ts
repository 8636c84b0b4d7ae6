/**
 * `CorsConfig` (seed §2.7) and `decodeCorsConfig`, its io-ts decoder: user input (partial,
 * any shape) to a complete config with the seed's defaults, or a `CorsConfigError` naming
 * the field, so a bad config stops the server at start-up rather than misbehaving later.
 * Unknown keys are errors too (a typo must not silently fall back to a default).
 *
 * Pure and portable: no node:* imports. io-ts stable `t.Type` API.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'

/** CORS settings, all fields resolved. */
export interface CorsConfig {
  /** Origins granted access; `'*'` grants every origin. */
  readonly allowedOrigins: readonly string[]
  /** Methods granted in a preflight (upper case). */
  readonly allowedMethods: readonly string[]
  /** Request headers granted in a preflight. */
  readonly allowedHeaders: readonly string[]
  /** Send `Access-Control-Allow-Credentials: true` (the origin is then echoed, never `*`). */
  readonly allowCredentials: boolean
  /** Seconds a preflight answer may be cached (`Access-Control-Max-Age`). */
  readonly maxAge: number
}

/** The seed's defaults (§2.7). */
export const DEFAULT_CORS_CONFIG: CorsConfig = Object.freeze({
  allowedOrigins: ['*'],
  allowedMethods: ['GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH', 'HEAD'],
  allowedHeaders: ['Content-Type', 'X-Requested-With', 'Authorization'],
  allowCredentials: false,
  maxAge: 86400,
})

/** A config that cannot be used: `field` names it (`'maxAge'`, `'allowedOrigins.2'`, `'(root)'`). */
export interface CorsConfigError {
  readonly _tag: 'CorsConfigError'
  readonly field: string
  readonly message: string
}

const configError = (field: string, message: string): CorsConfigError => ({ _tag: 'CorsConfigError', field, message })

interface NonNegativeIntBrand {
  readonly NonNegativeInt: unique symbol
}
const NonNegativeInt = t.brand(t.number, (n): n is t.Branded<number, NonNegativeIntBrand> => Number.isInteger(n) && n >= 0, 'NonNegativeInt')

// RFC 9110 §5.6.2 token, for method and header names.
const isToken = (s: string): boolean => /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(s)
const Token = t.refinement(t.string, isToken, 'Token')

const Input = t.partial({
  allowedOrigins: t.readonlyArray(t.refinement(t.string, (s) => s !== '' && !/[\s,]/.test(s), 'Origin')),
  allowedMethods: t.readonlyArray(Token),
  allowedHeaders: t.readonlyArray(Token),
  allowCredentials: t.boolean,
  maxAge: NonNegativeInt,
})

const KEYS = new Set(Object.keys(Input.props))

/**
 * CORS options as a user writes them (every field optional; the defaults fill the rest):
 * the static type of the codec `decodeCorsConfig` checks at start-up, so an editor catches
 * a misspelt option while JavaScript users still get the start-up error.
 */
export type CorsOptions = t.OutputOf<typeof Input>

/**
 * Decodes user input (`undefined` gives the defaults).
 *
 * @example
 * decodeCorsConfig({ allowedOrigins: ['https://app.example'] })  // right({ ..., allowedOrigins: [...] })
 * decodeCorsConfig({ maxAge: -1 })                                // left({ field: 'maxAge', ... })
 */
export const decodeCorsConfig = (input: unknown): Either<CorsConfigError, CorsConfig> => {
  if (input === undefined) return right(DEFAULT_CORS_CONFIG)
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return left(configError('(root)', '(root): the CORS config must be an object'))
  }
  const unknownKey = Object.keys(input).find((k) => !KEYS.has(k))
  if (unknownKey !== undefined) return left(configError(unknownKey, `unknown CORS option "${unknownKey}"`))
  const decoded = Input.decode(input)
  if (decoded._tag === 'Left') {
    const first = decoded.left[0]
    const path = (first?.context ?? []).map((c) => c.key).filter((k) => k !== '')
    const field = path.length === 0 ? '(root)' : path.join('.')
    const expected = first?.context[first.context.length - 1]?.type.name ?? 'a valid value'
    return left(configError(field, `${field}: expected ${expected}, got ${JSON.stringify(first?.value)}`))
  }
  const v = decoded.right
  return right({
    allowedOrigins: v.allowedOrigins ?? DEFAULT_CORS_CONFIG.allowedOrigins,
    allowedMethods: (v.allowedMethods ?? DEFAULT_CORS_CONFIG.allowedMethods).map((m) => m.toUpperCase()),
    allowedHeaders: v.allowedHeaders ?? DEFAULT_CORS_CONFIG.allowedHeaders,
    allowCredentials: v.allowCredentials ?? DEFAULT_CORS_CONFIG.allowCredentials,
    maxAge: v.maxAge ?? DEFAULT_CORS_CONFIG.maxAge,
  })
}

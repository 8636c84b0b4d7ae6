/**
 * CORS as plain functions of a config: `isOriginAllowed`, `applyCors` and
 * `preflightResponse` (DESIGN §2). Each config is compiled once (cached per config object)
 * by `compileCors`, so calling these per request costs no more than the compiled form.
 *
 * Pure and portable: no node:* imports.
 */
import { compileCors, type Cors } from './compile-cors.js'
import type { CorsConfig } from './cors-config.js'
import type { HttpRequest, Response } from './types.js'

const compiled = new WeakMap<CorsConfig, Cors>()

const policy = (config: CorsConfig): Cors => {
  let cors = compiled.get(config)
  if (cors === undefined) {
    cors = compileCors(config)
    compiled.set(config, cors)
  }
  return cors
}

/**
 * Whether `origin` is granted by `config` (`'*'` grants all; otherwise exact, case-insensitive).
 *
 * @example
 * isOriginAllowed(DEFAULT_CORS_CONFIG, 'https://x.example') // true
 */
export const isOriginAllowed = (config: CorsConfig, origin: string): boolean => policy(config).isOriginAllowed(origin)

/** `response` with the CORS grant for `request`'s Origin. */
export const applyCors = (config: CorsConfig, request: HttpRequest, response: Response): Response =>
  policy(config).apply(request, response)

/** The 204 preflight answer, or `undefined` when `request` is not a CORS preflight. */
export const preflightResponse = (config: CorsConfig, request: HttpRequest): Response | undefined =>
  policy(config).preflight(request)

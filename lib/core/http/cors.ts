/**
 * CORS as plain functions of a config: `isOriginAllowed`, `applyCors` and
 * `preflightResponse` (DESIGN §2). Each call compiles the config (`compileCors`): the core
 * keeps no cache between calls. A server compiles its config once and calls the compiled
 * form's functions per request.
 *
 * Pure and portable: no node:* imports.
 */
import { compileCors, type Cors } from './compile-cors.js'
import type { CorsConfig } from './cors-config.js'
import type { HttpRequest, Response } from './types.js'

const policy = (config: CorsConfig): Cors => compileCors(config)

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

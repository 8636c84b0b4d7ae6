/**
 * `compileCors`: a `CorsConfig` resolved once into the two pure functions a server needs:
 * `apply` (grant headers on an ordinary response) and `preflight` (the 204 answer to a
 * CORS preflight). Per the Fetch standard's CORS protocol: the origin is echoed (with
 * `Vary: Origin`) whenever the answer depends on it, always with credentials; a
 * disallowed origin or method gets no grant at all.
 *
 * Pure and portable: no node:* imports.
 */
import type { CorsConfig } from './cors-config.js'
import { requestHeader } from './request-header.js'
import { noContent } from './response.js'
import { withHeader } from './response-updates.js'
import type { Header, HttpRequest, Response } from './types.js'

/** A compiled CORS policy. */
export interface Cors {
  /** Whether `origin` is granted. */
  isOriginAllowed(origin: string): boolean
  /** `res` with the CORS grant for `req`'s Origin (and `Vary: Origin` when the grant depends on it). */
  apply(req: HttpRequest, res: Response): Response
  /** The 204 answer when `req` is a preflight (OPTIONS with Origin and Access-Control-Request-Method), else `undefined`. */
  preflight(req: HttpRequest): Response | undefined
}

// The wildcard grant on a response without other headers (the common case), shared.
const ANY_ORIGIN: readonly Header[] = Object.freeze([Object.freeze(['Access-Control-Allow-Origin', '*'] as const)])

// Adds `token` to the response's Vary list unless it is there (or Vary is `*`).
const addVary = (res: Response, token: string): Response => {
  const current = res.headers.find(([n]) => n.toLowerCase() === 'vary')?.[1]
  if (current === undefined) return withHeader(res, 'Vary', token)
  const members = current.split(',').map((m) => m.trim().toLowerCase())
  if (members.includes('*') || members.includes(token.toLowerCase())) return res
  return withHeader(res, 'Vary', `${current}, ${token}`)
}

/**
 * Resolves `config` into a {@link Cors}.
 *
 * @example
 * const cors = compileCors(DEFAULT_CORS_CONFIG)
 * cors.apply(request, json({ ok: true })) // with Access-Control-Allow-Origin: *
 */
export const compileCors = (config: CorsConfig): Cors => {
  const anyOrigin = config.allowedOrigins.includes('*')
  const origins = new Set(config.allowedOrigins.map((o) => o.toLowerCase()))
  const methods = new Set(config.allowedMethods.map((m) => m.toUpperCase()))
  const credentials = config.allowCredentials
  // With credentials the Fetch standard forbids `*`, so the origin is echoed and varies.
  const wildcard = anyOrigin && !credentials
  const allowMethods = config.allowedMethods.join(', ')
  const allowHeaders = config.allowedHeaders.join(', ')
  const maxAge = String(config.maxAge)

  const isOriginAllowed = (origin: string): boolean => anyOrigin || origins.has(origin.toLowerCase())

  // The wildcard grant depends on the response alone: the grant of the last response is
  // kept, so a constant response stays one value (and its serialized bytes are reused).
  let grantedOf: Response | undefined
  let granted: Response | undefined
  const grantAny = (res: Response): Response => {
    if (res === grantedOf) return granted as Response
    const out = res.headers.length === 0 ? { ...res, headers: ANY_ORIGIN } : withHeader(res, 'Access-Control-Allow-Origin', '*')
    grantedOf = res
    granted = out
    return out
  }

  const grant = (res: Response, origin: string | undefined): Response => {
    if (wildcard) return grantAny(res)
    const varied = addVary(res, 'Origin')
    if (origin === undefined || !isOriginAllowed(origin)) return varied
    const granted = withHeader(varied, 'Access-Control-Allow-Origin', origin)
    return credentials ? withHeader(granted, 'Access-Control-Allow-Credentials', 'true') : granted
  }

  // The wildcard grant does not depend on the request, so its Origin is not looked up (a walk
  // over every header line of every request, in the default configuration).
  const apply = wildcard
    ? (_req: HttpRequest, res: Response): Response => grantAny(res)
    : (req: HttpRequest, res: Response): Response => grant(res, requestHeader(req, 'origin'))

  const preflight = (req: HttpRequest): Response | undefined => {
    if (req.method !== 'OPTIONS') return undefined
    const origin = requestHeader(req, 'origin')
    const method = requestHeader(req, 'access-control-request-method')
    if (origin === undefined || method === undefined) return undefined
    const base = noContent()
    if (!isOriginAllowed(origin) || !methods.has(method.trim().toUpperCase())) return wildcard ? base : addVary(base, 'Origin')
    let res = grant(base, origin)
    res = withHeader(res, 'Access-Control-Allow-Methods', allowMethods)
    if (allowHeaders !== '') res = withHeader(res, 'Access-Control-Allow-Headers', allowHeaders)
    return withHeader(res, 'Access-Control-Max-Age', maxAge)
  }

  return { isOriginAllowed, apply, preflight }
}

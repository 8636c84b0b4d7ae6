/**
 * `chatAssets`: the page of the demo (`public/index.html`, `app.js`, `app.css`, and
 * `twinport-client.js`, the bundle of `twinport/client` made by `bundle-client.ts`) served by
 * `serveStatic` from `public/` at `/`: content types, validators (a reload is answered 304),
 * ranges, and no path outside the folder. Every answer carries the page's strict security
 * headers and `Cache-Control: no-cache` (always revalidated: a new build is seen at once).
 */
import { fileURLToPath } from 'node:url'
import { type RouteTable, serveStatic } from '../../lib/index.js'

/** The folder holding the page, beside this file. */
export const PUBLIC_DIR = fileURLToPath(new URL('./public/', import.meta.url))

// The page runs no inline script and loads nothing from elsewhere, so the policy can be strict.
// Under CSP Level 3, 'self' in connect-src also matches ws: to the same host and port, so
// the page's own WebSocket is allowed (the browser end-to-end test relies on it).
// (X-Content-Type-Options: nosniff is serveStatic's own.)
const PAGE_HEADERS = {
  'Content-Security-Policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
}

/**
 * The page's files under `dir` as routes (`GET /{*path}`: put it after the API's routes).
 *
 * @example
 * const table = routes(apiRoutes, chatAssets())
 */
export const chatAssets = (dir: string = PUBLIC_DIR): RouteTable => serveStatic('/', dir, { headers: PAGE_HEADERS, cacheControl: 'no-cache' })

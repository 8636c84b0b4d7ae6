/**
 * `adminRoutes`: the read-only admin page, served by the server itself (opt-in). `GET <path>`
 * is the page (behind the application's `authorize` hook, refused without one); its style,
 * script and the bundled `twinport/client` are public files beside it (they hold no data). The
 * page connects back over twinport's own WebSocket to `<path>/ws`, whose upgrade the same hook
 * decides (an `upgradeGuard`): a refused upgrade is answered with the refusal's status (401,
 * 403) instead of the 101, or, to a client that asks for refusals as close codes (the page's
 * twinport/client does), with `4000 + status` right after it; it never becomes a WebSocket
 * client. The `tp:admin` event answers a snapshot of every node (`ctx.admin.snapshot()`) to
 * connections of that path only. Pure and portable: no node:* imports.
 */
import { errorResponse, isResponse, response } from '../core/http/response.js'
import type { HttpRequest, Response } from '../core/http/types.js'
import { httpRoute } from '../core/route/http-route.js'
import type { HttpRoute, SocketOnRoute, UpgradeGuardRoute } from '../core/route/route.js'
import { socketOn } from '../core/route/socket-on.js'
import { upgradeGuard } from '../core/route/upgrade-guard.js'
import { admit } from '../core/route/upgrade-middleware.js'
import { ADMIN_CLIENT_JS } from './admin-client-bundle.js'
import { ADMIN_CSS, ADMIN_SCRIPT, adminHtml } from './admin-page.js'

/** The event the page asks a snapshot with. */
export const ADMIN_EVENT = 'tp:admin'

/** `true` admits; `false` refuses with 403; a response (a 401 with `WWW-Authenticate`, say) is the refusal. */
export type AdminVerdict = boolean | Response

/** The application's decision on a request for the page or an upgrade of its WebSocket. */
export type AdminAuthorize = (request: HttpRequest) => AdminVerdict | Promise<AdminVerdict>

export interface AdminRoutesOptions {
  /** Where the page is (default `/admin`); its files and its WebSocket (`<path>/ws`) are under it. */
  readonly path?: string
  /** Who may see the page. Absent: everyone is refused (403). */
  readonly authorize?: AdminAuthorize
  /** How often the page asks for a snapshot, in ms (default 1000, at least 250). */
  readonly refreshMs?: number
}

// The page runs no inline script and loads nothing from elsewhere: the policy can be strict
// ('self' in connect-src matches ws: to the same host and port under CSP Level 3).
const PAGE_HEADERS = Object.freeze({
  'Content-Security-Policy': "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
})

const refused = (): Response => errorResponse(403, 'Forbidden: the admin page needs an authorize hook that admits this request')

// The hook's verdict as a refusal, or `undefined` when admitted; a hook that throws refuses.
const refusalOf = async (authorize: AdminAuthorize | undefined, request: HttpRequest): Promise<Response | undefined> => {
  if (authorize === undefined) return refused()
  try {
    const verdict = await authorize(request)
    if (verdict === true) return undefined
    return isResponse(verdict) && verdict.status >= 400 ? verdict : refused()
  } catch {
    return refused()
  }
}

const asset = (body: string, contentType: string): Response => response(body, 200, { 'Content-Type': contentType, 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' })

/**
 * The admin page's routes: put them in the route table (before a catch-all route). Typed as
 * the routes they are (its pages, its socket's guard, its event), so a table they join keeps
 * its own event names for a typed client.
 *
 * @example
 * const admin = adminRoutes({ path: '/admin', authorize: (req) => parseQuery(req.rawQuery)['token'] === process.env.ADMIN_TOKEN })
 * await runServer({ routes: [admin, appRoutes] })
 */
export const adminRoutes = (options: AdminRoutesOptions = {}): readonly (HttpRoute<'GET'> | UpgradeGuardRoute | SocketOnRoute<typeof ADMIN_EVENT>)[] => {
  const path = (options.path ?? '/admin').replace(/\/+$/, '') || '/admin'
  const wsPath = `${path}/ws`
  const refreshMs = Math.max(250, options.refreshMs ?? 1000)
  const { authorize } = options
  const page = adminHtml(path, refreshMs)
  return [
    httpRoute('GET', path, async (req) => (await refusalOf(authorize, req.http)) ?? response(page, 200, { ...PAGE_HEADERS, 'Content-Type': 'text/html; charset=utf-8' })),
    httpRoute('GET', `${path}/admin.css`, () => asset(ADMIN_CSS, 'text/css; charset=utf-8')),
    httpRoute('GET', `${path}/admin.js`, () => asset(ADMIN_SCRIPT, 'text/javascript; charset=utf-8')),
    httpRoute('GET', `${path}/client.js`, () => asset(ADMIN_CLIENT_JS, 'text/javascript; charset=utf-8')),
    // The same hook at the upgrade, before the 101: a refused client never holds a WebSocket.
    upgradeGuard(wsPath, async (req) => (await refusalOf(authorize, req)) ?? admit()),
    // Checked again on every ask (a hook may change its mind): only the admin path's connections get an answer.
    socketOn(ADMIN_EVENT, async (_data, ctx) => {
      if (ctx.request.path !== wsPath || (await refusalOf(authorize, ctx.request)) !== undefined) return { error: 'forbidden' }
      if (ctx.admin === undefined) return { error: 'unavailable' }
      return ctx.admin.snapshot()
    }),
  ]
}

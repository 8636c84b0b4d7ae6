/**
 * `upgradeGuard(path, check)`: a route-table element that decides the WebSocket upgrades to one
 * path before the 101 (an HTTP 401/403 instead of a connection closed after it), so a table
 * (`adminRoutes`, say) can protect its own WebSocket without a server option. The server runs
 * it after its own HTTP middleware (`guardUpgrades`). Pure and portable: no node:* imports.
 */
import type { AnyClientData } from './client-data.js'
import type { UpgradeGuardRoute } from './route.js'
import type { UpgradeCheck } from './upgrade-middleware.js'

/** A guard's path as it is matched: without a trailing slash (`/` stays `/`). */
export const guardPath = (path: string): string => (path.length > 1 && path.endsWith('/') ? path.replace(/\/+$/, '') || '/' : path)

/**
 * Guards the WebSocket upgrades to `path` (exact, no `{params}`; a trailing slash is ignored)
 * with `check`, which answers `admit(data)` (the connection starts with `data` as its client
 * data) or a `Response`, the refusal sent instead of the 101 (a twinport client, which asks
 * for refusals as close codes, reads a 4xx as `4000 + status`). Every guard of the path runs,
 * in table order, after the server's `httpMiddleware` let the upgrade through; the first
 * refusal wins. A check that throws refuses with 500. Plain HTTP requests to the path, and
 * upgrades to other paths, never see it.
 *
 * @example
 * const guard = upgradeGuard('/admin/ws', (req) => (parseQuery(req.rawQuery)['token'] === 'secret' ? admit() : forbidden('no')))
 * await runServer({ routes: [guard, socketOn('ping', () => 'pong')] })
 */
export const upgradeGuard = <Data extends object = AnyClientData>(path: string, check: UpgradeCheck<Data>): UpgradeGuardRoute => ({ _tag: 'UpgradeGuard', path, check })

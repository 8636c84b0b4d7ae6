/**
 * `guardUpgrades`: the `upgradeGuard` routes of a compiled table as the innermost HTTP
 * middleware of a server's upgrade decision (after the application's `httpMiddleware`): an
 * upgrade to a guarded path goes on only when every guard of that path admits it, and the
 * client data each admission carries is stored through `ctx.handshake`. Plain HTTP requests
 * never reach it (the server does not put it in the dispatch's stack).
 * Pure and portable: no node:* imports.
 */
import type { HttpMiddleware } from './http-middleware.js'
import type { UpgradeGuardRoute } from './route.js'
import { guardPath } from './upgrade-guard.js'

/**
 * The middleware of `guards` (by path, as `compileRoutes` keeps them), or `undefined` when
 * there are none (so a server without guards keeps its upgrade decision as it was).
 *
 * @example
 * const guards = compiled.guards // ReadonlyMap<string, readonly UpgradeGuardRoute[]>
 * const stack = composeHttp([...httpMiddleware, ...[guardUpgrades(guards) ?? []].flat()])
 */
export const guardUpgrades = (guards: ReadonlyMap<string, readonly UpgradeGuardRoute[]>): HttpMiddleware | undefined => {
  if (guards.size === 0) return undefined
  return async (request, next, ctx) => {
    const handshake = ctx.handshake
    const mine = handshake === undefined ? undefined : guards.get(guardPath(request.path))
    if (handshake === undefined || mine === undefined) return next()
    for (const guard of mine) {
      const verdict = await guard.check(request, ctx)
      if (verdict._tag === 'Response') return verdict
      for (const [key, value] of Object.entries(verdict.data)) handshake.setClientData(key, value)
    }
    return next()
  }
}

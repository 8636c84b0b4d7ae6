/** `dispatchDisconnect`: every `onDisconnect` handler for a departed client (seed §3, §6). Pure and portable. */
import type { CompiledRoutes } from './compiled-routes.js'
import { runLifecycle } from './run-lifecycle.js'
import type { SocketContext } from './socket-context.js'
import { ignoreErrors, type WsErrorReporter } from './ws-error-reporter.js'

/**
 * Runs all `onDisconnect` handlers in table order, awaiting each; a failing one is
 * reported and does not stop the others. Resolves with the errors caught; never rejects.
 * The client is already gone: operations aimed at it should be no-ops in the server.
 *
 * @example
 * await dispatchDisconnect(compiled, ctx, (err, site) => logger.exception(err, { ...site }))
 */
export const dispatchDisconnect = (
  compiled: CompiledRoutes,
  ctx: SocketContext,
  onError: WsErrorReporter = ignoreErrors,
): Promise<readonly unknown[]> => runLifecycle(compiled.disconnect, ctx, 'disconnect', onError)

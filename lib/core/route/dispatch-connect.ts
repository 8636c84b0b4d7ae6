/** `dispatchConnect`: every `onConnect` handler for a new client (seed §3, §6). Pure and portable. */
import type { CompiledRoutes } from './compiled-routes.js'
import { runLifecycle } from './run-lifecycle.js'
import type { SocketContext } from './socket-context.js'
import { ignoreErrors, type WsErrorReporter } from './ws-error-reporter.js'

/**
 * Runs all `onConnect` handlers in table order, awaiting each; a failing one is reported
 * and does not stop the others. Resolves with the errors caught; never rejects.
 *
 * @example
 * await dispatchConnect(compiled, ctx, (err, site) => logger.exception(err, { ...site }))
 */
export const dispatchConnect = (
  compiled: CompiledRoutes,
  ctx: SocketContext,
  onError: WsErrorReporter = ignoreErrors,
): Promise<readonly unknown[]> => runLifecycle(compiled.connect, ctx, 'connect', onError)

/**
 * Runs connect or disconnect handlers one after the other in table order, each isolated:
 * one that throws is reported and the rest still run. Pure and portable: no timers.
 */
import type { LifecycleHandler } from './route.js'
import type { SocketContext } from './socket-context.js'
import { guardReporter, type WsErrorReporter } from './ws-error-reporter.js'

/** Awaits each handler in turn; resolves with the errors caught (empty when all succeeded). */
export const runLifecycle = async (
  handlers: readonly { readonly handler: LifecycleHandler }[],
  ctx: SocketContext,
  phase: 'connect' | 'disconnect',
  onError: WsErrorReporter,
): Promise<readonly unknown[]> => {
  const errors: unknown[] = []
  const report = guardReporter(onError)
  for (const { handler } of handlers) {
    try {
      await handler(ctx)
    } catch (error) {
      errors.push(error)
      report(error, { phase, clientId: ctx.clientId })
    }
  }
  return errors
}

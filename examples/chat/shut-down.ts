/**
 * `shutDown`: the demo's graceful stop on SIGINT/SIGTERM, logged: what is open when the
 * drain starts, and how many connections it closed and how long it took when it ends.
 */
import type { ServerHandle } from '../../lib/index.js'

/**
 * Closes `server` (WebSockets get 1001, HTTP answers already owed go out), logging both ends.
 *
 * @example
 * process.once('SIGTERM', () => void shutDown(chat, 'SIGTERM').then(() => process.exit(0)))
 */
export const shutDown = async (server: ServerHandle, signal: string, now: () => number = Date.now): Promise<void> => {
  const open = server.clients()
  const websockets = open.filter((c) => c.type === 'ws').length
  const started = now()
  server.logger.info('chat demo: {signal}: draining {websockets} WebSocket and {http} HTTP connections', {
    signal,
    websockets,
    http: open.length - websockets,
  })
  await server.close()
  server.logger.info('chat demo: drained: {closed} connections closed in {ms} ms', { closed: open.length, ms: now() - started })
}

/**
 * `inertHttpContext`: an HttpContext with no server behind it (no clients, operations do
 * nothing), so a route table can be exercised without a server. Pure and portable.
 */
import type { HttpContext } from './http-context.js'

/** No clients; sends, broadcasts and stores do nothing. */
export const inertHttpContext: HttpContext = Object.freeze({
  send: () => undefined,
  broadcast: () => undefined,
  clients: () => [],
  roomMembers: () => [],
  disconnectClient: () => undefined,
  getClientData: () => undefined,
  setClientData: () => undefined,
})

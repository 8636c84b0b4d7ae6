/**
 * `clientDataOf`: a client's data as the record type the application gave it at the upgrade
 * (`admit<Identity>(…)`), read from any context that can read client data (a WebSocket
 * handler's `ctx`, or the HTTP context with a client id). Pure and portable.
 */

/** A context that reads a client's data: a `SocketContext`, or a `Handshake`. */
export interface ClientDataReader {
  getClientData(key?: string): unknown
}

/**
 * This client's data, all of it, typed as `Data`. The type is the application's promise (what
 * its upgrade middleware admits every connection with), not a check made here; a key never
 * set reads `undefined`.
 *
 * @example
 * interface Identity { readonly user: string; readonly role: 'admin' | 'member' }
 * const whoami = socketOn('whoami', (_data, ctx) => clientDataOf<Identity>(ctx).user)
 */
export const clientDataOf = <Data extends object>(ctx: ClientDataReader): Data => ctx.getClientData() as Data

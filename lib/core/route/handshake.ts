/**
 * `Handshake`: what the HTTP middleware sees of a WebSocket upgrade it is deciding on
 * (`ctx.handshake`, present on upgrade requests only): the client data the connection starts
 * with, so the identity a middleware found (a user from a token) reaches `onConnect` and every
 * handler without being parsed again. Types only; pure and portable.
 */

/**
 * The connection being admitted. What `setClientData` stores is the client's data from its
 * first handler on (`ctx.getClientData(key)`), kept by its session and written to the shared
 * recovery store like any other client data; a refused upgrade drops it.
 */
export interface Handshake {
  /** Stores a value of the client data the connection starts with. */
  setClientData(key: string, value: unknown): void
  /** Reads one value stored so far (by an outer middleware), or all of them as a record. */
  getClientData(key?: string): unknown
}

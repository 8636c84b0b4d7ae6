/**
 * What a permessage-deflate negotiation agreed on for one connection (RFC 7692 §7.1): the
 * codec builds that connection's compressor and inflater from it.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/**
 * The agreed parameters, every one resolved (absent in the handshake = the RFC's default).
 *
 * @example
 * const params: DeflateParams = { serverNoContextTakeover: true, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15 }
 */
export interface DeflateParams {
  /** The server compresses every message with an empty LZ77 window (RFC 7692 §7.1.1.1). */
  readonly serverNoContextTakeover: boolean
  /** The client compresses every message with an empty window, so the inflater is reset after each (§7.1.1.2). */
  readonly clientNoContextTakeover: boolean
  /** The window (base-2 log, 8–15) the server compresses with (§7.1.2.1). */
  readonly serverMaxWindowBits: number
  /** The window (8–15) the client compresses with: the server's inflater needs no more (§7.1.2.2). */
  readonly clientMaxWindowBits: number
}

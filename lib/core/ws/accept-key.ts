/**
 * `acceptKey`: the `Sec-WebSocket-Accept` value for a `Sec-WebSocket-Key` (RFC 6455 §4.2.2,
 * step 5.4): base64 of the SHA-1 of the key followed by the protocol's GUID.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { encodeBase64 } from './base64.js'
import { sha1 } from './sha1.js'

/** The GUID RFC 6455 §1.3 appends to the client's key. */
export const WEBSOCKET_GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

const encoder = new TextEncoder()

/**
 * @example
 * acceptKey('dGhlIHNhbXBsZSBub25jZQ==') // 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=' (RFC 6455 §1.3)
 */
export const acceptKey = (key: string): string => encodeBase64(sha1(encoder.encode(key + WEBSOCKET_GUID)))

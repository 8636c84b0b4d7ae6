/**
 * `handshakeResponse`: the bytes of the 101 response that completes an accepted handshake
 * (RFC 6455 §4.2.2, step 5).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import type { Header } from '../http/types.js'
import type { Upgrade } from './validate-upgrade.js'

const encoder = new TextEncoder()

/**
 * The 101 Switching Protocols response, with the chosen subprotocol when there is one and
 * any extra headers (names and values must already be valid header text).
 *
 * @example
 * const upgrade = { key: 'dGhlIHNhbXBsZSBub25jZQ==', accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=', path: '/chat', rawQuery: '' }
 * new TextDecoder().decode(handshakeResponse(upgrade))
 * // 'HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n'
 * // + 'Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n'
 */
export const handshakeResponse = (upgrade: Upgrade, extraHeaders: readonly Header[] = []): Uint8Array => {
  // One template per handshake, no header tuples (issue 31: a 101 is made once per connection,
  // and at a million connections its garbage counts).
  let head = `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${upgrade.accept}\r\n`
  if (upgrade.protocol !== undefined) head += `Sec-WebSocket-Protocol: ${upgrade.protocol}\r\n`
  for (const [name, value] of extraHeaders) head += `${name}: ${value}\r\n`
  return encoder.encode(`${head}\r\n`)
}

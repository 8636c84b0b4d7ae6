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
  const headers: Header[] = [
    ['Upgrade', 'websocket'],
    ['Connection', 'Upgrade'],
    ['Sec-WebSocket-Accept', upgrade.accept],
    ...(upgrade.protocol === undefined ? [] : [['Sec-WebSocket-Protocol', upgrade.protocol] as const]),
    ...extraHeaders,
  ]
  const head = headers.map(([name, value]) => `${name}: ${value}\r\n`).join('')
  return encoder.encode(`HTTP/1.1 101 Switching Protocols\r\n${head}\r\n`)
}

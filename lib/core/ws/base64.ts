/**
 * Base64 (RFC 4648 §4, with padding), for the handshake's keys. Portable without `btoa` or
 * Buffer.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'

/**
 * @example
 * encodeBase64(new TextEncoder().encode('foob')) // 'Zm9vYg=='
 */
export const encodeBase64 = (bytes: Uint8Array): string => {
  let out = ''
  for (let i = 0; i < bytes.length; i += 3) {
    const rest = bytes.length - i
    const n = (bytes[i]! << 16) | ((rest > 1 ? bytes[i + 1]! : 0) << 8) | (rest > 2 ? bytes[i + 2]! : 0)
    out += ALPHABET[n >>> 18]! + ALPHABET[(n >>> 12) & 63]!
    out += rest > 1 ? ALPHABET[(n >>> 6) & 63]! : '='
    out += rest > 2 ? ALPHABET[n & 63]! : '='
  }
  return out
}

/** Test helpers for the ws specs: bytes from hex text and back, and UTF-8 shorthands. */

/** Bytes from hex pairs; spaces and line breaks are ignored. @example hex('81 05') */
export const hex = (text: string): Uint8Array => {
  const digits = text.replace(/\s+/g, '')
  if (digits.length % 2 !== 0 || /[^0-9a-f]/i.test(digits)) throw new Error(`bad hex: ${text}`)
  return Uint8Array.from({ length: digits.length / 2 }, (_, i) => parseInt(digits.slice(i * 2, i * 2 + 2), 16))
}

/** Lower-case hex pairs separated by spaces. */
export const toHex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ')

export const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

export { concatBytes } from '../../support/bytes.js'

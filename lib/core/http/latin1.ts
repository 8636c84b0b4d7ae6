/**
 * `latin1`: bytes to a string one byte per character (ISO-8859-1), the way HTTP field
 * values are opaque octets (RFC 9110 §5.5). Not `TextDecoder('latin1')`, which is
 * windows-1252 in the Encoding standard and maps 0x80–0x9F elsewhere. Pure and portable.
 */

const CHUNK = 4096
const ascii = new TextDecoder('utf-8')

/**
 * The string of `bytes[start..end)`, one char per byte.
 *
 * @example
 * latin1(new Uint8Array([0x48, 0x69]), 0, 2) // 'Hi'
 */
export const latin1 = (bytes: Uint8Array, start: number, end: number): string => {
  const n = end - start
  if (n <= 16) {
    let out = ''
    for (let i = start; i < end; i++) out += String.fromCharCode(bytes[i] as number)
    return out
  }
  if (n <= CHUNK) return String.fromCharCode.apply(null, bytes.subarray(start, end) as unknown as number[])
  let out = ''
  for (let i = start; i < end; i += CHUNK) {
    out += String.fromCharCode.apply(null, bytes.subarray(i, Math.min(end, i + CHUNK)) as unknown as number[])
  }
  return out
}

/**
 * The string of `bytes[start..end)` when the caller knows every byte is below 0x80: one
 * native decode for long runs (where ASCII and UTF-8 agree), the char loop for short ones.
 *
 * @example
 * asciiText(new Uint8Array([0x48, 0x69]), 0, 2) // 'Hi'
 */
export const asciiText = (bytes: Uint8Array, start: number, end: number): string =>
  end - start <= 16 ? latin1(bytes, start, end) : ascii.decode(start === 0 && end === bytes.length ? bytes : bytes.subarray(start, end))

/**
 * UTF-8 checks for text messages and close reasons (RFC 6455 §8.1, RFC 3629 §4), including
 * text split across fragments at any byte.
 *
 * Whole text goes through one shared, non-streaming `TextDecoder` with `fatal: true` (native
 * speed; without `stream` it keeps no state between calls, so sharing it is safe) and
 * `ignoreBOM: true` (a leading U+FEFF is part of the message, not a marker to strip).
 * Fragments are cut where a code point is split: the complete part is decoded at once, and
 * the 1–3 bytes of the split code point wait, as immutable data, for the next fragment. The
 * waiting bytes are checked to be a possible start of a code point, so text fails on the
 * fragment that carries the first bad byte. A streaming `TextDecoder` would do the same, but
 * it is mutable, and assembly states must be values that can be reused.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * The text, or `undefined` when the bytes are not UTF-8. The one place where the decoder's
 * exception becomes a value.
 *
 * @example
 * decodeUtf8(new Uint8Array([0x68, 0x69])) // 'hi'
 * decodeUtf8(new Uint8Array([0xc3, 0x28])) // undefined
 */
export const decodeUtf8 = (bytes: Uint8Array): string | undefined => {
  try {
    return decoder.decode(bytes)
  } catch {
    return undefined
  }
}

/** The number of bytes of the sequence a lead byte starts; 0 for a byte that starts none. */
export const sequenceLength = (lead: number): number =>
  lead < 0x80 ? 1 : lead < 0xc2 ? 0 : lead < 0xe0 ? 2 : lead < 0xf0 ? 3 : lead < 0xf5 ? 4 : 0

/**
 * Where the code point cut off at the end of `bytes` starts, or `bytes.length` when the bytes
 * end on a boundary (or end so badly that decoding them will say so).
 */
export const incompleteTailStart = (bytes: Uint8Array): number => {
  const length = bytes.length
  for (let i = length - 1; i >= 0 && i >= length - 3; i--) {
    const byte = bytes[i]!
    if ((byte & 0xc0) !== 0x80) return sequenceLength(byte) > length - i ? i : length
  }
  return length
}

/**
 * Whether 1–3 bytes, starting with a lead byte, can begin a valid code point: the second byte
 * respects the narrower ranges that rule out overlong forms, surrogates and values past
 * U+10FFFF (RFC 3629 §4), and later bytes are continuation bytes.
 */
export const isValidPrefix = (bytes: Uint8Array): boolean => {
  const lead = bytes[0]!
  if (sequenceLength(lead) <= 1) return false
  if (bytes.length > 1) {
    const second = bytes[1]!
    const [low, high] =
      lead === 0xe0 ? [0xa0, 0xbf] : lead === 0xed ? [0x80, 0x9f] : lead === 0xf0 ? [0x90, 0xbf] : lead === 0xf4 ? [0x80, 0x8f] : [0x80, 0xbf]
    if (second < low || second > high) return false
  }
  return bytes.length < 3 || (bytes[2]! & 0xc0) === 0x80
}

/** Text decoded so far from a fragmented message, and the bytes of a code point still open. */
export interface Utf8Progress {
  readonly text: string
  readonly pending: Uint8Array
}

const concat = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/**
 * Decodes the next fragment of a text, given the bytes of a code point left open by the
 * previous one; `undefined` as soon as the bytes cannot be UTF-8, whatever follows.
 *
 * @example
 * // "€" is e2 82 ac, split after its second byte.
 * decodeUtf8Fragment(new Uint8Array(0), new Uint8Array([0xe2, 0x82])) // { text: '', pending: e2 82 }
 * decodeUtf8Fragment(new Uint8Array([0xe2, 0x82]), new Uint8Array([0xac])) // { text: '€', pending: empty }
 */
export const decodeUtf8Fragment = (pending: Uint8Array, fragment: Uint8Array): Utf8Progress | undefined => {
  let head = ''
  let rest = fragment
  if (pending.length > 0) {
    // Complete the open code point with the first bytes of this fragment.
    const missing = sequenceLength(pending[0]!) - pending.length
    const joined = concat(pending, fragment.subarray(0, missing))
    if (fragment.length < missing) return isValidPrefix(joined) ? { text: '', pending: joined } : undefined
    const completed = decodeUtf8(joined)
    if (completed === undefined) return undefined
    head = completed
    rest = fragment.subarray(missing)
  }
  const cut = incompleteTailStart(rest)
  const tail = rest.subarray(cut)
  if (tail.length > 0 && !isValidPrefix(tail)) return undefined
  const body = decodeUtf8(rest.subarray(0, cut))
  if (body === undefined) return undefined
  return { text: head + body, pending: tail.slice() }
}

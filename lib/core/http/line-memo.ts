/**
 * `LineMemo`: the field lines of the last plain head, by position, with the headers made of
 * them. A client repeats its field lines request after request, in the same order (a
 * browser's User-Agent, client hints, Accept lines, Cookie): when the line at field `k` of a
 * head is the same bytes, up to its CRLF, as the line kept for field `k`, the scan takes
 * the kept header (a frozen `[name, value]` of the strings `internAscii` would answer) and
 * what the line means to the framing, and neither checks nor interns it again: the bytes are
 * those of a line that was checked (RFC 9112 §5) when it was kept, and a field line's
 * validity does not depend on the lines around it (the head's limits are checked apart).
 *
 * The request line is kept the same way, in a slot of its own (`REQUEST_LINE`), with the
 * method, target, query offset and version it reads as (`requestLine`): a client repeats its
 * request line too (wrk's `GET /hello HTTP/1.1` every time), and its validity also depends on
 * its bytes alone (RFC 9112 §3). Lines are compared with their CRLF, eight bytes at a time.
 *
 * The memo is a server's (`createLineMemo`), passed in: nothing is kept between servers.
 *
 * This keeps lines, not requests: every request still gets its own headers array and
 * record (a frozen line is shared, as a string is), and a line that differs costs what it
 * cost before, plus a copy into the memo.
 *
 * Pure and portable: no node:* imports.
 */
import type { Header } from './types.js'
import { type WordViews, wordsFor } from './word-view.js'

/** Field positions kept (0 to `LINE_SLOTS - 1`), and the longest line kept (name to value end). */
export const LINE_SLOTS = 32
export const LINE_MAX = 512

/** What a kept line is to the scan. */
export const OTHER_LINE = 0
/** Content-Length, Transfer-Encoding, Expect, or a Connection other than `keep-alive`. */
export const FRAMING_LINE = 1
/** Connection: keep-alive (plain for HTTP/1.1 only). */
export const KEEP_ALIVE_LINE = 2
/** Upgrade. */
export const UPGRADE_LINE = 3
/** Host, its value a plain valid host (`reg-name [ ":" port ]`, RFC 9112 §3.2), or not. */
export const HOST_CHECKED_LINE = 4
export const HOST_UNCHECKED_LINE = 5

/** The kept request line's parts (read them only after `sameLine(..., REQUEST_LINE)`). */
export interface RequestLineMemo {
  method: string
  target: string
  /** Index of the target's first `?`, -1 when none; `targetOffset` the target's from the line's start. */
  query: number
  targetOffset: number
  protocol: 'HTTP/1.0' | 'HTTP/1.1'
}

/** A server's kept lines: their bytes, headers and kinds by field position (read them only after `sameLine`). */
export interface LineMemo {
  /** Each kept line as a header, frozen: requests that share it cannot change it. */
  readonly headers: Header[]
  readonly kinds: Uint8Array
  /** What the kept request line reads as. */
  readonly requestLine: RequestLineMemo
  // Each kept line's bytes with its CRLF (`SLOT` per slot, also read eight at a time) and
  // length up to its CR; 0 means none kept.
  readonly kept: Uint8Array
  readonly keptWords: DataView
  readonly lengths: Int32Array
  readonly words: WordViews
}

const NONE: Header = Object.freeze(['', ''] as const)

const SLOT = LINE_MAX + 2

/**
 * The slot of the request line (one past the field positions): `sameLine(memo, bytes, at,
 * REQUEST_LINE)` finds the kept request line again, and `memo.requestLine` holds what it reads as.
 */
export const REQUEST_LINE = LINE_SLOTS

/**
 * A memo that keeps no line yet, comparing through `words` (the server's one record of views).
 *
 * @example
 * const memo = createLineMemo(createWordViews())
 */
export const createLineMemo = (words: WordViews): LineMemo => {
  const kept = new Uint8Array((LINE_SLOTS + 1) * SLOT)
  return {
    headers: new Array<Header>(LINE_SLOTS).fill(NONE),
    kinds: new Uint8Array(LINE_SLOTS),
    requestLine: { method: '', target: '', query: -1, targetOffset: 0, protocol: 'HTTP/1.1' },
    kept,
    keptWords: new DataView(kept.buffer),
    lengths: new Int32Array(LINE_SLOTS + 1),
    words,
  }
}

/**
 * The length (from `at` to its CR) of the line at `bytes[at..]` when it is the line kept
 * in `memo` for field `slot` (`slot < LINE_SLOTS`, or `REQUEST_LINE`) followed by CRLF
 * within `bytes`, else -1.
 *
 * @example
 * const b = bytes('Accept: x\r\n')
 * rememberLine(memo, b, 0, 9, 3, Object.freeze(['Accept', 'x'] as const), OTHER_LINE)
 * sameLine(memo, b, 0, 3) // 9
 */
export const sameLine = (memo: LineMemo, bytes: Uint8Array, at: number, slot: number): number => {
  const n = memo.lengths[slot] as number
  // The line and its CRLF, compared as one run.
  const m = n + 2
  if (n === 0 || at + m > bytes.length) return -1
  const base = slot * SLOT
  // Eight bytes at a time where a view pays (a long run left in this array, or one made
  // already), the last eight overlapping the ones before (no byte-by-byte tail). Compared as
  // doubles, which is exact here: every kept byte is 0x09–0x7E (a checked line is tchar,
  // VCHAR, SP, HTAB, then CR LF: RFC 9112 §3, §5), so a kept word's top byte (little-endian)
  // is too: its sign bit is clear and its exponent neither 0 nor all ones (IEEE 754), so the
  // kept word is a normal number, which only the same eight bytes equal (a NaN equals
  // nothing; only zero has two encodings).
  const words = m >= 8 ? wordsFor(memo.words, bytes, bytes.length - at) : undefined
  if (words !== undefined) {
    const keptWords = memo.keptWords
    const last = m - 8
    for (let i = 0; i < last; i += 8) if (words.getFloat64(at + i, true) !== keptWords.getFloat64(base + i, true)) return -1
    return words.getFloat64(at + last, true) === keptWords.getFloat64(base + last, true) ? n : -1
  }
  const kept = memo.kept
  for (let i = 0; i < m; i++) if (bytes[at + i] !== kept[base + i]) return -1
  return n
}

// Keeps the line `bytes[at..end)` and its CRLF in `slot`; a line longer than `LINE_MAX` is
// not kept (the slot then keeps nothing): false.
const keepBytes = (memo: LineMemo, bytes: Uint8Array, at: number, end: number, slot: number): boolean => {
  const n = end - at
  if (n > LINE_MAX) {
    memo.lengths[slot] = 0
    return false
  }
  memo.kept.set(bytes.subarray(at, end + 2), slot * SLOT)
  memo.lengths[slot] = n
  return true
}

/**
 * Keeps the checked field line `bytes[at..end)` (`end` at its CR, which CRLF follows) for field `slot`, with its
 * header (frozen: it is handed to every request that has the line) and its kind; a line
 * longer than `LINE_MAX` is not kept (the slot keeps nothing then).
 *
 * @example
 * rememberLine(memo, bytes('Accept: x\r\n'), 0, 9, 3, Object.freeze(['Accept', 'x'] as const), OTHER_LINE)
 */
export const rememberLine = (memo: LineMemo, bytes: Uint8Array, at: number, end: number, slot: number, header: Header, kind: number): void => {
  if (!keepBytes(memo, bytes, at, end, slot)) return
  memo.headers[slot] = header
  memo.kinds[slot] = kind
}

/**
 * Keeps the checked request line `bytes[at..end)` (`end` at its CR, which CRLF follows: RFC 9112 §3, method SP
 * request-target SP HTTP-version) with what it reads as; a line longer than `LINE_MAX` is
 * not kept (nothing is then). Its validity depends on its bytes alone, so the same bytes
 * again are the same line, read the same way.
 *
 * @example
 * rememberRequestLine(memo, bytes('GET /a?b HTTP/1.1\r\n'), 0, 17, 'GET', '/a?b', 2, 'HTTP/1.1')
 * sameLine(memo, bytes('GET /a?b HTTP/1.1\r\n'), 0, REQUEST_LINE) // 17
 */
export const rememberRequestLine = (
  memo: LineMemo, bytes: Uint8Array, at: number, end: number, method: string, target: string, query: number, protocol: 'HTTP/1.0' | 'HTTP/1.1',
): void => {
  if (!keepBytes(memo, bytes, at, end, REQUEST_LINE)) return
  const requestLine = memo.requestLine
  requestLine.method = method
  requestLine.target = target
  requestLine.query = query
  requestLine.targetOffset = method.length + 1
  requestLine.protocol = protocol
}

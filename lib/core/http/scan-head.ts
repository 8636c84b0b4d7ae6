/**
 * `scanHead`: the search for the end of a request head (the blank line, RFC 9112 §2.1),
 * resumable: it returns how far it searched, and the next call starts there, so no byte is
 * searched twice. On the way it enforces what can be decided before the head is complete,
 * in byte order, so a request split anywhere meets the same error as the whole request:
 * the method token's bytes (a TLS hello or other non-HTTP is refused at its first byte),
 * the request-line limit (414), the head limit (431) and CRLF line endings.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import * as classes from './char-classes.js'
import { bareLf, type HttpError, headersTooLarge, invalidMethod, requestLineTooLong } from './http-error.js'
import type { HttpLimits } from './http-limits.js'

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { CR, LF, SP, TCHAR } = classes

/** How far a head has been searched (carried in `NeedMore` between calls). */
export interface HeadScan {
  /** Bytes before this offset have been searched for line ends. */
  readonly searched: number
  /** Offset of the request line's LF, -1 while unseen. */
  readonly lineEnd: number
  /** Bytes of the method token checked so far; `Infinity` once its SP was seen. */
  readonly methodChecked: number
}

/** Where a fresh scan starts. */
export const HEAD_START: HeadScan = Object.freeze({ searched: 0, lineEnd: -1, methodChecked: 0 })

/** The effective request-line limit: never more than fits in the head. */
export const lineLimit = (limits: HttpLimits): number => Math.min(limits.maxRequestLine, limits.maxHeaderBytes - 4)

/**
 * The offset just after the head's blank line, or the scan to resume from.
 *
 * @example
 * scanHead(bytes('GET / HTTP/1.1\r\n\r\n'), HEAD_START, DEFAULT_HTTP_LIMITS) // right(18)
 */
export const scanHead = (bytes: Uint8Array, scan: HeadScan, limits: HttpLimits): Either<HttpError, number | HeadScan> => {
  const len = bytes.length
  const maxLine = lineLimit(limits)
  const maxHead = limits.maxHeaderBytes
  // RFC 9110 §9.1: method = token, then SP. Checked up to where the line limit would fire.
  let m = scan.methodChecked
  if (m !== Infinity) {
    const stop = Math.min(len, maxLine + 2)
    for (; m < stop; m++) {
      const b = bytes[m] as number
      if (b === SP && m > 0) {
        m = Infinity
        break
      }
      if (TCHAR[b] !== 1) return left(invalidMethod(m))
    }
  }
  let lineEnd = scan.lineEnd
  let i = bytes.indexOf(LF, scan.searched)
  while (i >= 0) {
    if (lineEnd < 0 && i > maxLine + 1) return left(requestLineTooLong(maxLine))
    if (i + 1 > maxHead) return left(headersTooLarge(maxHead))
    // RFC 9112 §2.2: lines end in CRLF; a bare LF is refused rather than guessed at.
    if (i === 0 || bytes[i - 1] !== CR) return left(bareLf(i))
    if (lineEnd < 0) lineEnd = i
    else if (bytes[i - 2] === LF && bytes[i - 3] === CR) return right(i + 1)
    i = bytes.indexOf(LF, i + 1)
  }
  if (lineEnd < 0 && len > maxLine + 1) return left(requestLineTooLong(maxLine))
  if (len >= maxHead) return left(headersTooLarge(maxHead))
  return right({ searched: len, lineEnd, methodChecked: m })
}

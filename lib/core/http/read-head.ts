/**
 * `readHead`: the single-pass reader of a request head for the common case, a fresh buffer
 * whose head is plain ASCII (`scanPlainHead`), completed into a head: the fields are read
 * one by one for the framing and the connection only when one of them names it.
 *
 * It answers only what it is sure of, the same answer `scanHead` + `parseHead` would give:
 * the complete head (or its framing error), or, when the buffer ends inside a head that is
 * valid so far, how far it searched, for `scanHead` to go on from there. Anything else (a
 * byte outside the plain grammar, obs-text, a limit reached) gives `undefined`, and the
 * caller takes the exact path, which finds the error at the same byte whatever the split.
 *
 * Pure and portable: no node:* imports.
 */
import type { Either } from 'fp-ts/lib/Either.js'
import type { HttpError } from './http-error.js'
import type { HttpLimits } from './http-limits.js'
import { completeHead, type Head } from './parse-head.js'
import { HEAD_START, type HeadScan } from './scan-head.js'
import type { HeadScratch } from './head-scratch.js'
import { EXACT, SCAN, SCAN_START, scanPlainHead } from './scan-plain-head.js'

/**
 * Reads the head at `bytes[start..]`: the head (or the error it earns once complete), the
 * scan to resume from when the buffer ends first, or `undefined` to take the exact path.
 * Offsets in the answer (the head's `end`, the scan, an error's offset) count from `start`.
 * The server's `scratch` (`createHeadScratch`) holds the scan's record and memos.
 *
 * @example
 * readHead(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), DEFAULT_HTTP_LIMITS, 0, createHeadScratch()) // right({ method: 'GET', ... })
 */
export const readHead = (bytes: Uint8Array, limits: HttpLimits, start: number, scratch: HeadScratch): Either<HttpError, Head> | HeadScan | undefined => {
  const end = scanPlainHead(bytes, limits, start, scratch)
  if (end === EXACT) return undefined
  if (end === SCAN_START) return HEAD_START
  const h = scratch.head
  // The buffer ended inside a field line that is valid so far, and no byte before `searched`
  // is an LF that was not checked as `scanHead` checks it (CRLF, within the limits): it goes
  // on from there, with its own checks for the rest (the limits included).
  if (end === SCAN) return { searched: h.searched, lineEnd: h.lineEnd, methodChecked: Infinity }
  return completeHead(h.method, h.target, h.query, h.targetOffset, h.protocol, h.headers, h.hosts, h.hostChecked, h.plain, end, limits)
}

/**
 * `parseHttpRequest`: one HTTP/1.0 or 1.1 request from the front of a byte buffer
 * (RFC 9112), incremental and strict. Three outcomes (DESIGN §2): an `HttpError` carrying the
 * status to answer; `NeedMore` with the buffer length to wait for; or the request and the
 * bytes after it (a view), so pipelined requests come out one after another. Up to
 * `MAX_EMPTY_LINES` empty lines before a request line are skipped (RFC 9112 §2.2), so a CRLF
 * a client sends after a body, or before its first request, is not an error.
 *
 * It never rescans: a `NeedMore` from this parser is an `HttpNeedMore` that also says where
 * it stopped (how far the head was searched, the parsed head while the body arrives, the
 * chunk offsets so far). The shell passes the previous `NeedMore` back with the grown
 * buffer (same start, more bytes) and parsing resumes there. Passing nothing is always
 * correct too, only slower.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import type { NeedMore, Parsed } from '../decode-step.js'
import { type ChunkedState, chunkedStart, decodeChunked } from './decode-chunked.js'
import { CR, LF } from './char-classes.js'
import { createHeadScratch, type HeadScratch } from './head-scratch.js'
import type { HttpError } from './http-error.js'
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js'
import { type Head, parseHead } from './parse-head.js'
import { readHead } from './read-head.js'
import { requestOfHead } from './request-of-head.js'
import { HEAD_START, type HeadScan, scanHead } from './scan-head.js'
import { MAX_EMPTY_LINES, skipEmptyLines } from './skip-empty-lines.js'
import type { Header, HttpRequest } from './types.js'

/** Where the parser stopped, to resume from on the next call. */
export type HttpResume =
  | ({ readonly _tag: 'Head' } & HeadScan)
  | { readonly _tag: 'Body'; readonly head: Head }
  | { readonly _tag: 'Chunked'; readonly head: Head; readonly chunked: ChunkedState }

/** A `NeedMore` that also carries where to resume; pass it back as the third argument. */
export interface HttpNeedMore extends NeedMore {
  readonly resume: HttpResume
}

/** One step of the parser: wait (with resume information) or a request and the rest. */
export type HttpDecodeStep = HttpNeedMore | Parsed<HttpRequest>

const EMPTY = new Uint8Array(0)
const NO_TRAILERS: readonly Header[] = Object.freeze([])

const needMore = (atLeast: number, resume: HttpResume): HttpNeedMore => ({ _tag: 'NeedMore', atLeast, resume })

// Where a head not searched at all resumes: as a fresh buffer.
const FRESH: HttpResume = Object.freeze({ _tag: 'Head', ...HEAD_START })

const done = (head: Head, body: Uint8Array, trailers: readonly Header[], bytes: Uint8Array, end: number): Either<HttpError, HttpDecodeStep> =>
  right({
    _tag: 'Parsed',
    value: requestOfHead(head, body, trailers),
    rest: bytes.subarray(end),
  })

const body = (bytes: Uint8Array, head: Head, chunked: ChunkedState | undefined, limits: HttpLimits): Either<HttpError, HttpDecodeStep> => {
  const framing = head.framing
  if (framing._tag === 'NoBody') return done(head, EMPTY, NO_TRAILERS, bytes, head.end)
  if (framing._tag === 'Length') {
    const end = head.end + framing.length
    if (bytes.length < end) return right(needMore(end, { _tag: 'Body', head }))
    return done(head, bytes.subarray(head.end, end), NO_TRAILERS, bytes, end)
  }
  const step = decodeChunked(bytes, chunked ?? chunkedStart(head.end), limits)
  if (step._tag === 'Left') return step
  const r = step.right
  if ('state' in r) return right(needMore(r.atLeast, { _tag: 'Chunked', head, chunked: r.state }))
  return done(head, r.body, r.trailers, bytes, r.end)
}

// The request at the very start of `bytes` (no empty lines before it), from `from` if given.
const parseFrom = (bytes: Uint8Array, limits: HttpLimits, from: HttpResume | undefined, scratch: HeadScratch | undefined): Either<HttpError, HttpDecodeStep> => {
  if (from !== undefined && from._tag !== 'Head') return body(bytes, from.head, from._tag === 'Chunked' ? from.chunked : undefined, limits)
  let start: HeadScan = from ?? HEAD_START
  // A fresh buffer (or a head not searched at all yet): the single pass reads the whole head when it can.
  if (start.searched === 0) {
    const read = readHead(bytes, limits, 0, scratch ?? createHeadScratch())
    if (read !== undefined) {
      if ('_tag' in read) return read._tag === 'Left' ? read : body(bytes, read.right, undefined, limits)
      start = read
    }
  }
  const scanned = scanHead(bytes, start, limits)
  if (scanned._tag === 'Left') return scanned
  const end = scanned.right
  if (typeof end !== 'number') return right(needMore(bytes.length + 1, { _tag: 'Head', ...end }))
  const head = parseHead(bytes, end, limits)
  if (head._tag === 'Left') return head
  return body(bytes, head.right, undefined, limits)
}

// An error found at `offset` of the buffer after `skip` bytes, as an offset of the whole buffer.
const shifted = (error: HttpError, skip: number): HttpError => ('offset' in error ? { ...error, offset: error.offset + skip } : error)

/**
 * Parses the request at the start of `bytes`, after at most {@link MAX_EMPTY_LINES} empty
 * lines (RFC 9112 §2.2). Offsets in errors and `atLeast` count from the start of `bytes`.
 *
 * @param bytes  the connection's unconsumed bytes, starting at a request
 * @param limits bounds on line, head, field count and body (defaults: {@link DEFAULT_HTTP_LIMITS})
 * @param resume the `NeedMore` of the previous call on the same (grown) buffer, if any
 * @param scratch a server's memos for reading heads (`createHeadScratch`); a fresh one when
 *                absent (the same answer, without what earlier heads left to reuse)
 *
 * @example
 * const step = parseHttpRequest(new TextEncoder().encode('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), DEFAULT_HTTP_LIMITS)
 * // right({ _tag: 'Parsed', value: { method: 'GET', path: '/', ... }, rest: <empty view> })
 */
export const parseHttpRequest = (
  bytes: Uint8Array,
  limits: HttpLimits = DEFAULT_HTTP_LIMITS,
  resume?: HttpNeedMore,
  scratch?: HeadScratch,
): Either<HttpError, HttpDecodeStep> => {
  // A resume point past the end of `bytes` belongs to another buffer: start afresh.
  const from = resume !== undefined && resume.atLeast - 1 <= bytes.length ? resume.resume : undefined
  const first = bytes[0]
  if (first !== CR && first !== LF) return parseFrom(bytes, limits, from, scratch)
  // Empty lines first. Resume points count from the request line, which is found again at the
  // same offset on every call (the buffer only grows), so they stay valid.
  const skipped = skipEmptyLines(bytes)
  if (skipped._tag === 'Left') return skipped
  const skip = skipped.right
  if (skip === bytes.length || bytes[skip] === CR) return right(needMore(bytes.length + 1, FRESH))
  const step = parseFrom(bytes.subarray(skip), limits, from, scratch)
  if (step._tag === 'Left') return left(shifted(step.left, skip))
  const r = step.right
  return r._tag === 'NeedMore' ? right(needMore(r.atLeast + skip, r.resume)) : step
}

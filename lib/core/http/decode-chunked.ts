/**
 * `decodeChunked`: a resumable step over a chunked body (RFC 9112 §7.1), from the first
 * chunk-size line to the end of the trailer section. It keeps the offsets of the chunk
 * data rather than copying them, and copies once, at the end, into one body. Extensions are
 * checked against their grammar (§7.1.1) and ignored, within a bounded line; trailers are
 * parsed like header fields and bounded like the head. The body limit is checked as each
 * chunk size is read.
 *
 *   chunked-body = *chunk last-chunk trailer-section CRLF
 *   chunk        = chunk-size [ chunk-ext ] CRLF chunk-data CRLF
 *   last-chunk   = 1*("0") [ chunk-ext ] CRLF
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import * as classes from './char-classes.js'
import { findChunkExtError } from './find-chunk-ext-error.js'
import { bareLf, bodyTooLarge, type HttpError, headersTooLarge, invalidChunk } from './http-error.js'
import type { HttpLimits } from './http-limits.js'
import { latin1 } from './latin1.js'
import { fieldsOf, parseFieldLines } from './parse-field-lines.js'
import type { Header } from './types.js'

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { CR, HEX, LF } = classes

/** Longest chunk-size line (size and extensions), CRLF excluded. */
export const MAX_CHUNK_LINE = 4096

/** Where a chunked body stands between calls. */
export interface ChunkedState {
  /** `Size`: at a chunk-size line; `Data`: inside `size` bytes of data; `Trailers`: after the last chunk. */
  readonly phase: 'Size' | 'Data' | 'Trailers'
  /** Offset where the current unit starts (line, data or trailer section). */
  readonly pos: number
  /** Bytes before this offset were searched for a line end without finding the one needed. */
  readonly searched: number
  /** Size of the chunk being read in phase `Data`. */
  readonly size: number
  /** `[start, end)` of each chunk's data so far. */
  readonly pieces: readonly (readonly [number, number])[]
  /** Sum of the pieces' lengths. */
  readonly total: number
}

/** A fully decoded chunked body. */
export interface ChunkedBody {
  readonly body: Uint8Array
  readonly trailers: readonly Header[]
  /** Offset just after the chunked body. */
  readonly end: number
}

/** The state at the start of a chunked body that begins at `pos`. */
export const chunkedStart = (pos: number): ChunkedState => ({ phase: 'Size', pos, searched: pos, size: 0, pieces: [], total: 0 })

const EMPTY = new Uint8Array(0)

const gather = (bytes: Uint8Array, pieces: readonly (readonly [number, number])[], total: number): Uint8Array => {
  if (pieces.length === 0) return EMPTY
  if (pieces.length === 1) {
    const [s, e] = pieces[0] as readonly [number, number]
    return bytes.subarray(s, e)
  }
  const out = new Uint8Array(total)
  let at = 0
  for (const [s, e] of pieces) {
    out.set(bytes.subarray(s, e), at)
    at += e - s
  }
  return out
}

/**
 * One step: the decoded body, or the state to resume from with the total length to wait for.
 *
 * @example
 * decodeChunked(bytes('3\r\nabc\r\n0\r\n\r\n'), chunkedStart(0), DEFAULT_HTTP_LIMITS)
 */
export const decodeChunked = (
  bytes: Uint8Array,
  start: ChunkedState,
  limits: HttpLimits,
): Either<HttpError, ChunkedBody | { readonly state: ChunkedState; readonly atLeast: number }> => {
  const len = bytes.length
  let { phase, pos, searched, size, total } = start
  const pieces = start.pieces.slice()
  const wait = (atLeast: number, searchedTo: number) =>
    right({ state: { phase, pos, searched: searchedTo, size, pieces, total }, atLeast })
  for (;;) {
    if (phase === 'Data') {
      if (len < pos + size + 2) return wait(pos + size + 2, pos)
      if (bytes[pos + size] !== CR || bytes[pos + size + 1] !== LF) return left(invalidChunk(pos + size))
      pieces.push([pos, pos + size])
      total += size
      pos += size + 2
      searched = pos
      phase = 'Size'
      continue
    }
    if (phase === 'Trailers') {
      if (len < pos + 2) return wait(pos + 2, pos)
      if (bytes[pos] === CR && bytes[pos + 1] === LF) return right({ body: gather(bytes, pieces, total), trailers: [], end: pos + 2 })
      // The trailer section, like a head: search for the blank line without revisiting bytes.
      let i = bytes.indexOf(LF, Math.max(searched, pos))
      while (i >= 0) {
        if (i + 1 - pos > limits.maxHeaderBytes) return left(headersTooLarge(limits.maxHeaderBytes))
        if (bytes[i - 1] !== CR) return left(bareLf(i))
        if (i - 3 >= pos && bytes[i - 2] === LF && bytes[i - 3] === CR) {
          const fields = parseFieldLines(bytes, pos, i - 1, limits.maxHeaders)
          if (fields._tag === 'Left') return fields
          const trailers = fieldsOf(latin1(bytes, pos, i - 1), pos, fields.right.offsets)
          return right({ body: gather(bytes, pieces, total), trailers, end: i + 1 })
        }
        i = bytes.indexOf(LF, i + 1)
      }
      if (len - pos >= limits.maxHeaderBytes) return left(headersTooLarge(limits.maxHeaderBytes))
      return wait(len + 1, len)
    }
    // Phase Size: chunk-size [ chunk-ext ] CRLF
    const lf = bytes.indexOf(LF, Math.max(searched, pos))
    if (lf < 0) {
      if (len - pos > MAX_CHUNK_LINE + 1) return left(invalidChunk(pos))
      return wait(len + 1, len)
    }
    if (lf - pos - 1 > MAX_CHUNK_LINE) return left(invalidChunk(pos))
    if (lf === pos || bytes[lf - 1] !== CR) return left(invalidChunk(lf))
    let p = pos
    let n = 0
    for (let d = HEX[bytes[p] as number] as number; d !== 255; d = HEX[bytes[++p] as number] as number) {
      n = n * 16 + d
      // The limit is checked while the digits are read, so no size can overflow.
      if (total + n > limits.maxBody) return left(bodyTooLarge(limits.maxBody))
    }
    if (p === pos) return left(invalidChunk(pos))
    // chunk-ext (RFC 9112 §7.1.1): parsed exactly, then ignored.
    if (p < lf - 1) {
      const bad = findChunkExtError(bytes, p, lf - 1)
      if (bad >= 0) return left(invalidChunk(bad))
    }
    pos = lf + 1
    searched = pos
    if (n === 0) phase = 'Trailers'
    else {
      size = n
      phase = 'Data'
    }
  }
}

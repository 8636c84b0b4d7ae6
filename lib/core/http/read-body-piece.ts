/**
 * `readBodyPiece`: a request body read as it arrives, for routes that stream their body
 * (DESIGN §8). Where `parseHttpRequest` gathers a whole body, this hands out each piece of
 * data as a view of the bytes it is given and says how many bytes it used, so a server can
 * pass the piece on and drop the bytes: memory stays bounded by one read, whatever the size.
 *
 * A `BodyReader` is an immutable state value, passed in and returned. Content-Length bodies
 * (RFC 9112 §6.2) and chunked bodies (§7.1, extensions checked and ignored) are read; the
 * trailer section of a chunked body is checked line by line (each a field line, as in a head),
 * bounded like a head, and dropped.
 * The body limit is checked as each length is read, before any data of it is passed on.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { needMore, type NeedMore } from '../decode-step.js'
import * as classes from './char-classes.js'
import { MAX_CHUNK_LINE } from './decode-chunked.js'
import { findChunkExtError } from './find-chunk-ext-error.js'
import { bareLf, bodyTooLarge, type HttpError, headersTooLarge, invalidChunk } from './http-error.js'
import { parseFieldLines } from './parse-field-lines.js'
import type { Framing } from './parse-head.js'

const { CR, HEX, LF } = classes

/** Where a streamed body stands; `total` counts the data bytes passed on so far. */
export type BodyReader =
  | { readonly _tag: 'Length'; readonly remaining: number; readonly total: number }
  | { readonly _tag: 'ChunkSize'; readonly total: number }
  | { readonly _tag: 'ChunkData'; readonly remaining: number; readonly total: number }
  | { readonly _tag: 'ChunkEnd'; readonly total: number }
  | { readonly _tag: 'Trailers'; readonly total: number; readonly seen: number }
  | { readonly _tag: 'Done'; readonly total: number }

/** The bounds a streamed body is read within. */
export interface BodyReadLimits {
  /** Most data bytes in the body: past it, 413. */
  readonly maxBody: number
  /** Most bytes of the trailer section (as for a head): past it, 431. */
  readonly maxHeaderBytes: number
}

/** One step: `data` (a view, possibly empty) was read, `consumed` bytes of the input used. */
export interface BodyPiece {
  readonly _tag: 'BodyPiece'
  readonly data: Uint8Array
  readonly consumed: number
  readonly next: BodyReader
}

const EMPTY = new Uint8Array(0)

/**
 * The reader at the start of a body framed as `framing` (from the request head), or 413 when
 * its announced length is already past the limit.
 *
 * @example
 * startBody({ _tag: 'Length', length: 3 }, 10) // right({ _tag: 'Length', remaining: 3, total: 0 })
 */
export const startBody = (framing: Framing, maxBody: number): Either<HttpError, BodyReader> => {
  if (framing._tag === 'NoBody') return right({ _tag: 'Done', total: 0 })
  if (framing._tag === 'Chunked') return right({ _tag: 'ChunkSize', total: 0 })
  return framing.length > maxBody ? left(bodyTooLarge(maxBody)) : right({ _tag: 'Length', remaining: framing.length, total: 0 })
}

const piece = (data: Uint8Array, consumed: number, next: BodyReader): Either<HttpError, BodyPiece> =>
  right({ _tag: 'BodyPiece', data, consumed, next })

// chunk-size [ chunk-ext ] CRLF at the start of `bytes`.
const readSize = (bytes: Uint8Array, total: number, limits: BodyReadLimits): Either<HttpError, BodyPiece | NeedMore> => {
  const lf = bytes.indexOf(LF)
  if (lf < 0) return bytes.length > MAX_CHUNK_LINE + 1 ? left(invalidChunk(0)) : right(needMore(bytes.length + 1))
  if (lf - 1 > MAX_CHUNK_LINE) return left(invalidChunk(0))
  if (lf === 0 || bytes[lf - 1] !== CR) return left(invalidChunk(lf))
  let p = 0
  let n = 0
  for (let d = HEX[bytes[p] as number] as number; d !== 255; d = HEX[bytes[++p] as number] as number) {
    n = n * 16 + d
    // Checked while the digits are read, so no size can overflow.
    if (total + n > limits.maxBody) return left(bodyTooLarge(limits.maxBody))
  }
  if (p === 0) return left(invalidChunk(0))
  if (p < lf - 1) {
    const bad = findChunkExtError(bytes, p, lf - 1)
    if (bad >= 0) return left(invalidChunk(bad))
  }
  return piece(EMPTY, lf + 1, n === 0 ? { _tag: 'Trailers', total, seen: 0 } : { _tag: 'ChunkData', remaining: n, total })
}

// The trailer section, one complete line at a time; the empty line ends the body.
const readTrailers = (bytes: Uint8Array, total: number, seen: number, limits: BodyReadLimits): Either<HttpError, BodyPiece | NeedMore> => {
  let at = 0
  let used = seen
  for (;;) {
    const lf = bytes.indexOf(LF, at)
    if (lf < 0) {
      if (used + bytes.length - at > limits.maxHeaderBytes) return left(headersTooLarge(limits.maxHeaderBytes))
      return at === 0 ? right(needMore(bytes.length + 1)) : piece(EMPTY, at, { _tag: 'Trailers', total, seen: used })
    }
    if (lf === at || bytes[lf - 1] !== CR) return left(bareLf(lf))
    used += lf + 1 - at
    if (used > limits.maxHeaderBytes) return left(headersTooLarge(limits.maxHeaderBytes))
    if (lf === at + 1) return piece(EMPTY, lf + 1, { _tag: 'Done', total })
    // Each trailer line is a field line, refused as `decodeChunked` refuses it (found by fuzzing:
    // a control byte in a trailer value passed here and was a 400 there).
    const field = parseFieldLines(bytes, at, lf + 1, 1)
    if (field._tag === 'Left') return field
    at = lf + 1
  }
}

/**
 * Reads the next piece of the body from the start of `bytes` (the connection's unread bytes).
 * `NeedMore` says how many bytes to wait for; a `Done` reader means the body is over and the
 * bytes after `consumed` belong to the next request. Never throws.
 *
 * @example
 * readBodyPiece({ _tag: 'ChunkSize', total: 0 }, bytes('3\r\nabc\r\n0\r\n\r\n'), limits)
 * // right({ _tag: 'BodyPiece', data: <empty>, consumed: 3, next: { _tag: 'ChunkData', remaining: 3, total: 0 } })
 */
export const readBodyPiece = (reader: BodyReader, bytes: Uint8Array, limits: BodyReadLimits): Either<HttpError, BodyPiece | NeedMore> => {
  switch (reader._tag) {
    case 'Done':
      return piece(EMPTY, 0, reader)
    case 'Length': {
      if (bytes.length === 0) return right(needMore(1))
      const take = Math.min(reader.remaining, bytes.length)
      const total = reader.total + take
      const next: BodyReader = take === reader.remaining ? { _tag: 'Done', total } : { _tag: 'Length', remaining: reader.remaining - take, total }
      return piece(bytes.subarray(0, take), take, next)
    }
    case 'ChunkSize':
      return readSize(bytes, reader.total, limits)
    case 'ChunkData': {
      if (bytes.length === 0) return right(needMore(1))
      const take = Math.min(reader.remaining, bytes.length)
      const total = reader.total + take
      const next: BodyReader = take === reader.remaining ? { _tag: 'ChunkEnd', total } : { _tag: 'ChunkData', remaining: reader.remaining - take, total }
      return piece(bytes.subarray(0, take), take, next)
    }
    case 'ChunkEnd':
      if (bytes.length < 2) return bytes.length === 1 && bytes[0] !== CR ? left(invalidChunk(0)) : right(needMore(2))
      if (bytes[0] !== CR || bytes[1] !== LF) return left(invalidChunk(0))
      return piece(EMPTY, 2, { _tag: 'ChunkSize', total: reader.total })
    case 'Trailers':
      return readTrailers(bytes, reader.total, reader.seen, limits)
  }
}

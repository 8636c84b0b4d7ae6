/**
 * `sendFile`: the answer to a GET or HEAD for a file that was found, from its facts and the
 * request's conditional and Range fields: 200 streamed with its length, 304, 412, 206 (one
 * range, or several as multipart/byteranges), 416. The bytes are read by the runtime's
 * `StaticFiles` only as the engine pulls them; HEAD, 304 and the error answers read nothing.
 *
 * Pure and portable: no node:* imports (the file access and the clock come in).
 */
import type { Request } from '../http/request.js'
import { errorResponse } from '../http/response.js'
import { stream } from '../http/stream-response.js'
import type { Header, Response } from '../http/types.js'
import { type HeaderInput, normalizeHeaders } from '../http/normalize-headers.js'
import { etagOf } from '../http/static/etag-of.js'
import { evaluatePreconditions } from '../http/static/evaluate-preconditions.js'
import { lastModifiedOf } from '../http/static/last-modified-of.js'
import { type MultipartByteranges, multipartByteranges } from '../http/static/multipart-byteranges.js'
import { DEFAULT_RANGE_OPTIONS, type RangeOptions, selectRanges } from '../http/static/select-ranges.js'
import type { FileInfo, StaticFiles } from '../http/static/static-files.js'

/** A file to send, as `serveStatic` found it. */
export interface FoundFile {
  /** The path to read (the real path, links resolved). */
  readonly path: string
  readonly info: FileInfo
  /** The Content-Type of the representation (the original name's, for a precompressed sibling). */
  readonly contentType: string
  /** Headers every answer about this file carries: Cache-Control, Vary, Content-Encoding, the user's. */
  readonly headers: readonly Header[]
  /** The validators when already made (a cached file's): `etagOf(size, mtimeMs)` and the Last-Modified value. */
  readonly validators?: { readonly etag: string; readonly lastModified: string }
  /** The whole file when it is held in memory (a small cached file): sent from here, nothing read. */
  readonly bytes?: Uint8Array
}

/** What `sendFile` needs besides the file. */
export interface SendContext {
  readonly files: StaticFiles
  /** Range limits; `false` ignores Range. */
  readonly ranges: RangeOptions | false
  readonly boundary: () => string
  /** The server's clock (milliseconds), when it has one: keeps Last-Modified from the future. */
  readonly nowMs: number | undefined
}

const encoder = new TextEncoder()

const bare = (status: number, headers: readonly Header[]): Response => ({ _tag: 'Response', status, headers, contentType: '', body: undefined })

async function* multipartSource(files: StaticFiles, path: string, version: FileInfo, body: MultipartByteranges): AsyncGenerator<Uint8Array> {
  for (const part of body.parts) {
    yield encoder.encode(part.head)
    yield* files.read(path, part.range.first, part.range.last, version)
  }
  yield encoder.encode(body.tail)
}

/**
 * Answers `req` (GET or HEAD) with the file: validators first (ETag from size and
 * modification time, Last-Modified), then RFC 9110 §13.2.2's preconditions (304 or 412),
 * then Range (§14; If-Range inside `selectRanges`). Every answer but 412 and 416 says
 * `Accept-Ranges: bytes` and `X-Content-Type-Options: nosniff`.
 *
 * @example
 * const res = sendFile(req, { path: '/srv/www/app.js', info, contentType: 'text/javascript; charset=utf-8', headers: [] }, context)
 */
export const sendFile = (req: Request, file: FoundFile, context: SendContext): Response => {
  const { size, mtimeMs } = file.info
  const held = file.bytes !== undefined && file.bytes.length === size ? file.bytes : undefined
  const etag = file.validators?.etag ?? etagOf(size, mtimeMs)
  const validators = { etag, lastModified: mtimeMs }
  const headers: Header[] = [
    ['ETag', etag],
    ['Last-Modified', file.validators?.lastModified ?? lastModifiedOf(mtimeMs, context.nowMs)],
    ...file.headers,
    ['X-Content-Type-Options', 'nosniff'],
  ]
  const precondition = evaluatePreconditions(req.method, req.headers, validators, context.nowMs)
  if (precondition === 304) return bare(304, headers)
  if (precondition === 412) return errorResponse(412, 'precondition_failed', headers)
  if (context.ranges !== false) headers.push(['Accept-Ranges', 'bytes'])
  const selection =
    context.ranges === false ? ({ _tag: 'Whole' } as const) : selectRanges(req.method, req.headers, size, validators, context.ranges ?? DEFAULT_RANGE_OPTIONS, context.nowMs)
  switch (selection._tag) {
    case 'Whole':
      if (size === 0) return { _tag: 'Response', status: 200, headers, contentType: file.contentType, body: new Uint8Array(0) }
      if (held !== undefined) return { _tag: 'Response', status: 200, headers, contentType: file.contentType, body: held }
      return stream(context.files.read(file.path, 0, size - 1, file.info), { headers, contentType: file.contentType, length: size })
    case 'Single': {
      const { first, last } = selection.range
      headers.push(['Content-Range', selection.contentRange])
      if (held !== undefined) return { _tag: 'Response', status: 206, headers, contentType: file.contentType, body: held.subarray(first, last + 1) }
      return stream(context.files.read(file.path, first, last, file.info), { status: 206, headers, contentType: file.contentType, length: last - first + 1 })
    }
    case 'Multiple': {
      const body = multipartByteranges(selection.ranges, size, file.contentType, context.boundary())
      if (body === undefined) return stream(context.files.read(file.path, 0, size - 1, file.info), { headers, contentType: file.contentType, length: size })
      return stream(multipartSource(context.files, file.path, file.info, body), { status: 206, headers, contentType: body.contentType, length: body.length })
    }
    case 'Unsatisfiable':
      return errorResponse(416, 'range_not_satisfiable', [...headers, ['Content-Range', selection.contentRange]])
  }
}

/** The user's `headers` option as header lines (Content-Type among them is ignored). */
export const extraHeaders = (input: HeaderInput | undefined): readonly Header[] => (input === undefined ? [] : normalizeHeaders(input).headers)

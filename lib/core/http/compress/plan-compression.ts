/**
 * `planCompression`: whether an answer is compressed on the fly, and with what (issue 30):
 * Accept-Encoding with q-values (RFC 9110 §12.5.3, through `pickEncoding`), a size
 * threshold, and the answers never compressed: 1xx (an upgrade's 101 included), 204, 206,
 * 304, HEAD, `Cache-Control: no-transform` (RFC 9111 §5.2.2.6), an answer that already has a
 * `Content-Encoding` (a precompressed file), and types that are compressed already
 * (`isCompressible`).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { headerValue } from '../header-value.js'
import { isCompressible } from '../static/is-compressible.js'
import { pickEncoding } from '../static/pick-encoding.js'
import type { Response } from '../types.js'
import type { ContentCoding } from './compress-config.js'

/**
 * What to do with an answer:
 * - `Leave`: send it as it is;
 * - `Vary`: send it uncompressed, with `Vary: Accept-Encoding` (another request could get
 *   it compressed: caches must key on the field);
 * - `Compress`: send it in `coding`, with `Vary: Accept-Encoding`.
 */
export type CompressionPlan =
  | { readonly _tag: 'Leave' }
  | { readonly _tag: 'Vary' }
  | { readonly _tag: 'Compress'; readonly coding: ContentCoding }

const LEAVE: CompressionPlan = Object.freeze({ _tag: 'Leave' })
const VARY: CompressionPlan = Object.freeze({ _tag: 'Vary' })

/** The request's side of the decision. */
export interface CompressionRequest {
  readonly method: string
  /** The combined Accept-Encoding field, `undefined` when absent. */
  readonly acceptEncoding: string | undefined
}

/** The server's side: what it can send, and from what size. */
export interface CompressionPolicy {
  /** The codings on offer, the preferred first. */
  readonly codings: readonly ContentCoding[]
  readonly threshold: number
}

const hasNoTransform = (res: Response): boolean => {
  const cache = headerValue(res.headers, 'cache-control')
  return cache !== undefined && /(?:^|,)\s*no-transform\s*(?:,|$)/i.test(cache)
}

/**
 * The plan for `res` answering `req`. `size` is the body's length in bytes when known
 * (`undefined`: a streamed body of unknown length, compressed whatever its size).
 *
 * @example
 * planCompression({ method: 'GET', acceptEncoding: 'gzip, br' }, html(page), 5000, { codings: ['br', 'gzip'], threshold: 1024 })
 * // { _tag: 'Compress', coding: 'br' }
 * planCompression({ method: 'GET', acceptEncoding: 'gzip' }, html(page), 100, { codings: ['br', 'gzip'], threshold: 1024 })
 * // { _tag: 'Vary' }
 */
export const planCompression = (req: CompressionRequest, res: Response, size: number | undefined, policy: CompressionPolicy): CompressionPlan => {
  const status = res.status
  // RFC 9110 §15.3.7: a 206's ranges are of the identity bytes; 1xx, 204, 304 carry no content.
  if (status < 200 || status === 204 || status === 206 || status === 304) return LEAVE
  if (res.contentType === '' || !isCompressible(res.contentType)) return LEAVE
  if (headerValue(res.headers, 'content-encoding') !== undefined || hasNoTransform(res)) return LEAVE
  if (policy.codings.length === 0) return LEAVE
  // HEAD: the headers of a GET would depend on Accept-Encoding too, so say so; nothing to compress.
  if (req.method === 'HEAD' || (size !== undefined && size < policy.threshold)) return VARY
  const choice = pickEncoding(req.acceptEncoding, [...policy.codings, 'identity'])
  return choice.coding === 'identity' ? VARY : { _tag: 'Compress', coding: choice.coding as ContentCoding }
}

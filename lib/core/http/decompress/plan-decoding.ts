/**
 * `planDecoding`: what to do with a request body from its `Content-Encoding` (RFC 9110 §8.4)
 * and the route's `decompress` option: leave it (no coding, only `identity`, or a route that
 * takes it as sent), decode it (the codings to undo, outermost first), or refuse it with 415
 * and the `Accept-Encoding` the route takes.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import { type HttpError, unsupportedContentEncoding } from '../http-error.js'
import type { Header } from '../types.js'
import type { RequestCoding } from './http-decoder.js'

/** A route's `decompress` option: decode the runtime's codings (`true`) or these, or take the body as sent (`'raw'`). */
export type DecompressOption = true | readonly RequestCoding[] | 'raw'

/** What the dispatch does with a body. */
export type DecodingPlan =
  | { readonly _tag: 'Leave' }
  | { readonly _tag: 'Decode'; readonly codings: readonly RequestCoding[] }
  | { readonly _tag: 'Refuse'; readonly error: HttpError }

/** Codings applied one over another that are unwrapped; a deeper stack is refused (415). */
export const MAX_STACKED_CODINGS = 2

const LEAVE: DecodingPlan = Object.freeze({ _tag: 'Leave' })
const KNOWN: readonly string[] = Object.freeze(['gzip', 'deflate', 'br', 'zstd'])

// RFC 9110 §8.4.1.3: a recipient SHOULD take x-gzip as gzip.
const normalCoding = (token: string): string => {
  const lower = token.trim().toLowerCase()
  return lower === 'x-gzip' ? 'gzip' : lower
}

/** Every `Content-Encoding` line's codings in the order applied, `identity` and empty members dropped. */
const codingsOf = (headers: readonly Header[]): string[] | undefined => {
  let codings: string[] | undefined
  for (let i = 0; i < headers.length; i++) {
    const [name, value] = headers[i] as Header
    if (name.length !== 16 || name.toLowerCase() !== 'content-encoding') continue
    for (const member of value.split(',')) {
      const coding = normalCoding(member)
      if (coding !== '' && coding !== 'identity') (codings ??= []).push(coding)
    }
  }
  return codings
}

/**
 * @example
 * planDecoding([['Content-Encoding', 'gzip']], true, ['gzip', 'br']) // { _tag: 'Decode', codings: ['gzip'] }
 * planDecoding([['Content-Encoding', 'gzip']], undefined, ['gzip'])  // Refuse: 415, Accept-Encoding: identity
 * planDecoding([['Content-Encoding', 'gzip, br']], true, ['gzip', 'br']) // Decode ['br', 'gzip']: br was applied last
 */
export const planDecoding = (headers: readonly Header[], option: DecompressOption | undefined, available: readonly RequestCoding[]): DecodingPlan => {
  const applied = codingsOf(headers)
  if (applied === undefined || option === 'raw') return LEAVE
  const taken = option === undefined ? [] : option === true ? available : available.filter((c) => option.includes(c))
  const accepted = [...taken, 'identity']
  // RFC 9110 §8.4: the codings are listed in the order they were applied; undone from the last.
  const undo = [...applied].reverse()
  for (const coding of undo) {
    if (!KNOWN.includes(coding) || !taken.includes(coding as RequestCoding)) return { _tag: 'Refuse', error: unsupportedContentEncoding(coding, accepted) }
  }
  if (undo.length > MAX_STACKED_CODINGS) return { _tag: 'Refuse', error: unsupportedContentEncoding(applied.join(', '), accepted) }
  return { _tag: 'Decode', codings: undo as RequestCoding[] }
}

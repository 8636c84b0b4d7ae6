/**
 * `parseRequestBody`: the raw body of a request to the value a route reads, by media type:
 * JSON (`application/json`, `*+json`) parsed, `application/x-www-form-urlencoded` to a
 * record, anything else as UTF-8 text (invalid sequences replaced). An empty body is
 * `undefined` whatever the type. `JSON.parse` errors become `InvalidJson` here, and only here.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import { type InvalidJson, invalidJson } from './http-error.js'
import { parseQuery, type Query } from './parse-query.js'
import type { Json } from './types.js'

/** What a request body reads as. */
export type RequestBodyValue = Json | Query | string | undefined

const strictUtf8 = new TextDecoder('utf-8', { fatal: true })
const looseUtf8 = new TextDecoder('utf-8')

/**
 * The media type of a Content-Type value, lower-cased, without parameters (RFC 9110 §8.3.1).
 *
 * @example
 * mediaType('Application/JSON; charset=utf-8') // 'application/json'
 */
export const mediaType = (contentType: string | undefined): string => {
  if (contentType === undefined) return ''
  const semi = contentType.indexOf(';')
  return (semi < 0 ? contentType : contentType.slice(0, semi)).trim().toLowerCase()
}

/** Whether a media type is JSON (`application/json` or a `+json` suffix, RFC 6839 §3.1). */
export const isJsonMediaType = (type: string): boolean => type === 'application/json' || type.endsWith('+json')

/**
 * Parses `raw` as JSON: `InvalidJson` when it is not UTF-8 or not JSON.
 *
 * @example
 * parseJsonBytes(new TextEncoder().encode('[1]')) // right([1])
 */
export const parseJsonBytes = (raw: Uint8Array): Either<InvalidJson, Json> => {
  try {
    return right(JSON.parse(strictUtf8.decode(raw)) as Json)
  } catch {
    return left(invalidJson())
  }
}

/**
 * The body value for `contentType`.
 *
 * @example
 * parseRequestBody('application/x-www-form-urlencoded', new TextEncoder().encode('a=1')) // right({ a: '1' })
 */
export const parseRequestBody = (contentType: string | undefined, raw: Uint8Array): Either<InvalidJson, RequestBodyValue> => {
  if (raw.length === 0) return right(undefined)
  const type = mediaType(contentType)
  if (isJsonMediaType(type)) return parseJsonBytes(raw)
  const textBody = looseUtf8.decode(raw)
  return right(type === 'application/x-www-form-urlencoded' ? parseQuery(textBody) : textBody)
}

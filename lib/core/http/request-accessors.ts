/**
 * The seed's Request accessors (§4.2) as pure functions of a `Request`, plus `all` and
 * `input` (body, then query, then path params) and the Either-returning body reads a route
 * uses to answer 400 `invalid_json` or 415 `unsupported_media_type`. Names match the seed's methods; the Response reads are
 * `getResponseHeader`/`getResponseHeaders`, so both sets can be imported together.
 *
 * Pure and portable: no node:* imports.
 */
import { type Either, isLeft, isRight, left, right } from 'fp-ts/lib/Either.js'
import { type InvalidJson, invalidJson, type UnsupportedMediaType, unsupportedMediaType } from './http-error.js'
import type { QueryValue } from './parse-query.js'
import { isJsonMediaType, mediaType, type RequestBodyValue } from './parse-request-body.js'
import { requestHeader } from './request-header.js'
import type { Params, Request } from './request.js'
import type { HttpRequest, Json } from './types.js'

/** The method, as received (methods are case-sensitive, RFC 9110 §9.1). */
export const getMethod = (req: Request): string => req.method
/** The percent-decoded path. */
export const getPath = (req: Request): string => req.path
/** `HTTP/1.0` or `HTTP/1.1`. */
export const getProtocol = (req: Request): string => req.protocol
/** The decoded query record. */
export const getQuery = (req: Request): Readonly<Record<string, QueryValue>> => req.query
/** The path params record. */
export const getParams = <P extends Params>(req: Request<P>): P => req.params

// A route's `Request` carries its header index; a parsed `HttpRequest` (what middleware and
// `ctx.request` hold) has the lines only.
const isRouteRequest = (req: Request | HttpRequest): req is Request => 'headerMap' in req

/**
 * The value of a header (case-insensitive name), repeated lines joined; `undefined` when
 * absent. Takes a route's `Request` or a parsed `HttpRequest` (HTTP middleware,
 * `ctx.request` of a WebSocket handler).
 *
 * @example
 * getHeader(ctx.request, 'X-Forwarded-For') // '203.0.113.7, 10.0.0.2'
 */
export const getHeader = (req: Request | HttpRequest, name: string): string | undefined =>
  isRouteRequest(req) ? req.headerMap.get(name.toLowerCase()) : requestHeader(req, name)

/** Whether the request has header `name` (case-insensitive); a `Request` or an `HttpRequest`. */
export const hasHeader = (req: Request | HttpRequest, name: string): boolean =>
  isRouteRequest(req) ? req.headerMap.has(name.toLowerCase()) : requestHeader(req, name) !== undefined

/** Every header as a record keyed by lower-case name. */
export const getHeaders = (req: Request): Readonly<Record<string, string>> => Object.fromEntries(req.headerMap)

/**
 * A query parameter (an array when the key repeats), or `fallback` when absent.
 *
 * @example
 * getQueryParam(req, 'page', '1')
 */
export function getQueryParam(req: Request, name: string): QueryValue | undefined
export function getQueryParam<D>(req: Request, name: string, fallback: D): QueryValue | D
export function getQueryParam<D>(req: Request, name: string, fallback?: D): QueryValue | D | undefined {
  return Object.hasOwn(req.query, name) ? req.query[name] : fallback
}

/** Whether the query has `name`. */
export const hasQueryParam = (req: Request, name: string): boolean => Object.hasOwn(req.query, name)

/**
 * A path parameter, typed by the route's path when the name is one of its params.
 *
 * @example
 * getParam(req, 'id')
 */
export function getParam<P extends Params, K extends keyof P & string>(req: Request<P>, name: K): P[K]
export function getParam(req: Request, name: string): string | undefined
export function getParam<D>(req: Request, name: string, fallback: D): string | D
export function getParam<D>(req: Request, name: string, fallback?: D): string | D | undefined {
  return Object.hasOwn(req.params, name) ? req.params[name] : fallback
}

/** Whether the route matched a param `name`. */
export const hasParam = (req: Request, name: string): boolean => Object.hasOwn(req.params, name)

/** The body as read by media type; `undefined` when empty or when a JSON body is invalid. */
export const getBody = (req: Request): RequestBodyValue => (isRight(req.body) ? req.body.right : undefined)

/** The body, or `InvalidJson` (400 `invalid_json`) for a JSON body that does not parse. */
export const readBody = (req: Request): Either<InvalidJson, RequestBodyValue> => req.body

/** Why `readJsonBody` found no JSON: 415 for another media type, 400 for a body that does not parse. */
export type JsonBodyError = InvalidJson | UnsupportedMediaType

/**
 * The body as JSON. The request must declare it: `application/json` or a `+json` type
 * (RFC 6839 §3.1, e.g. `application/problem+json`), parameters ignored. Any other type, or
 * none (RFC 9110 §8.3 lets a recipient take a body without a type as octet-stream), is
 * `UnsupportedMediaType` (415), since a JSON route that accepted form or text bodies would
 * take requests a cross-site page can send without a CORS preflight. A declared JSON body
 * that is empty, not UTF-8 or not JSON is `InvalidJson` (400).
 *
 * @example
 * pipe(readJsonBody(req), match(httpErrorResponse, (data) => json(data)))
 */
export const readJsonBody = (req: Request): Either<JsonBodyError, Json> => {
  const type = mediaType(req.headerMap.get('content-type'))
  if (!isJsonMediaType(type)) return left(unsupportedMediaType(type))
  // A declared JSON body was parsed when the request was built: Left when it is not JSON.
  return isRight(req.body) && req.body.right !== undefined ? right(req.body.right as Json) : left(invalidJson())
}

type Fields = Readonly<Record<string, unknown>>

const bodyFields = (req: Request): Fields => {
  const body = getBody(req)
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Fields) : {}
}

/** Body fields over query over path params, as one record (the seed's `all()`). */
export const all = (req: Request): Fields => ({ ...req.params, ...req.query, ...bodyFields(req) })

/**
 * One input by name: the body's field, else the query's, else the path param's, else `fallback`.
 *
 * @example
 * input(req, 'name', 'anonymous')
 */
export const input = (req: Request, name: string, fallback?: unknown): unknown => {
  const fields = bodyFields(req)
  if (Object.hasOwn(fields, name)) return fields[name]
  if (Object.hasOwn(req.query, name)) return req.query[name]
  if (Object.hasOwn(req.params, name)) return req.params[name]
  return fallback
}

/**
 * Seed `getData`: without a key every field (as `all`); with a key the body's field, else the
 * query's, else `fallback`.
 */
export const getData = (req: Request, key?: string, fallback?: unknown): unknown => {
  if (key === undefined) return all(req)
  const fields = bodyFields(req)
  if (Object.hasOwn(fields, key)) return fields[key]
  if (Object.hasOwn(req.query, key)) return req.query[key]
  return fallback
}

/** Whether the request declares a JSON body (`application/json` or `*+json`). */
export const isJson = (req: Request): boolean => isJsonMediaType(mediaType(req.headerMap.get('content-type')))

/** Whether `X-Requested-With: XMLHttpRequest` was sent (case-insensitive). */
export const isAjax = (req: Request): boolean => req.headerMap.get('x-requested-with')?.toLowerCase() === 'xmlhttprequest'

/** Whether the method is `method` (case-insensitive). */
export const isMethod = (req: Request, method: string): boolean => req.method.toUpperCase() === method.toUpperCase()

/**
 * The URL of the request. An absolute-form target gives its own scheme and authority; otherwise
 * the scheme is `http` (twinport speaks plain TCP; a TLS-terminating proxy in front is not
 * visible here) and the authority is the `Host` header. Without a Host the URL is the path
 * alone, since the core cannot know the address. The path and query stay percent-encoded.
 *
 * @example
 * getUrl(req, true) // 'http://example.com/search?q=a'
 */
export const getUrl = (req: Request, includeQuery = false): string => {
  const http = req.http
  const query = includeQuery && http.rawQuery !== '' ? `?${http.rawQuery}` : ''
  const target = http.target
  const scheme = target.indexOf('://')
  if (scheme > 0) {
    const pathAt = target.indexOf('/', scheme + 3)
    const origin = pathAt < 0 ? target.split('?')[0] : target.slice(0, pathAt)
    return `${origin}${http.path}${query}`
  }
  const host = req.headerMap.get('host')
  return host === undefined || host === '' ? `${http.path}${query}` : `http://${host}${http.path}${query}`
}

// Kept for callers that check for an error without importing fp-ts.
/** Whether the body failed to parse as the JSON its content type declares. */
export const hasInvalidBody = (req: Request): boolean => isLeft(req.body)

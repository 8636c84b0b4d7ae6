/**
 * `checkResponses`: a route table whose HTTP routes check their answers against the
 * responses they declared (status → schema), for development: a wrong answer becomes a 500
 * that says what is wrong, and is reported. The check costs a decode per answer, so a
 * production server is given the table as it is. Pure and portable: no node:* imports.
 */
import * as E from 'fp-ts/lib/Either.js'
import { isJsonMediaType, mediaType } from '../http/parse-request-body.js'
import { isResponse, json } from '../http/response.js'
import { StreamBody } from '../http/stream-body.js'
import type { Response } from '../http/types.js'
import { decodeSchema, type SchemaResult } from './decode-schema.js'
import type { HttpContext } from './http-context.js'
import type { DeclaredResponses } from './http-input.js'
import type { HttpRoute, Route, RouteTable } from './route.js'
import type { PayloadIssue } from './validation-details.js'

/** An answer that does not fit the route's declared responses. */
export interface ResponseMismatch {
  readonly method: string
  readonly path: string
  readonly status: number
  /** Empty when the status itself was not declared. */
  readonly details: readonly PayloadIssue[]
}

/** Options of `checkResponses`. */
export interface CheckResponsesOptions {
  /** Told about every mismatch (log it). Must not throw. */
  readonly onMismatch?: (mismatch: ResponseMismatch) => void
  /** Answer a mismatch as usual instead of with a 500 (only report it). */
  readonly reportOnly?: boolean
}

type Answer = { readonly status: number; readonly body: unknown; readonly checkable: boolean }

const utf8 = new TextDecoder()

// What the client would get: a plain value is a 200 JSON body, undefined a 204.
const answerOf = (result: unknown): Answer => {
  if (!isResponse(result)) return result === undefined ? { status: 204, body: undefined, checkable: true } : { status: 200, body: result, checkable: true }
  const res: Response = result
  const body = res.body
  if (body === undefined || body === null) return { status: res.status, body: undefined, checkable: true }
  if (body instanceof StreamBody) return { status: res.status, body: undefined, checkable: false }
  if (typeof body === 'string' || body instanceof Uint8Array) {
    if (!isJsonMediaType(mediaType(res.contentType))) return { status: res.status, body: undefined, checkable: false }
    try {
      return { status: res.status, body: JSON.parse(typeof body === 'string' ? body : utf8.decode(body)), checkable: true }
    } catch {
      return { status: res.status, body: undefined, checkable: false }
    }
  }
  return { status: res.status, body, checkable: true }
}

const mismatchResponse = (mismatch: ResponseMismatch): Response =>
  json(
    {
      error: 'invalid_response',
      message:
        mismatch.details.length === 0
          ? `${mismatch.method} ${mismatch.path} answered ${mismatch.status}, which it does not declare`
          : `${mismatch.method} ${mismatch.path} answered ${mismatch.status} with a body that does not fit: ${mismatch.details.map((d) => `${d.path === '' ? '(root)' : d.path}: expected ${d.expected}`).join('; ')}`,
      status: mismatch.status,
      details: mismatch.details.map((d) => ({ path: d.path, expected: d.expected })),
    },
    500,
  )

const guard = (route: HttpRoute, declared: DeclaredResponses, options: CheckResponsesOptions): HttpRoute['handler'] => {
  const verdict = (result: unknown, decoded: SchemaResult<unknown> | undefined, status: number): unknown => {
    if (decoded !== undefined && E.isRight(decoded)) return result
    const mismatch: ResponseMismatch = { method: route.method, path: route.path, status, details: decoded === undefined ? [] : decoded.left }
    try {
      options.onMismatch?.(mismatch)
    } catch {
      // A broken hook must not change the answer.
    }
    return options.reportOnly === true ? result : mismatchResponse(mismatch)
  }
  const inspect = (result: unknown): unknown => {
    const answer = answerOf(result)
    // The input check's own answers (400, 415, 422) are twinport's, not the handler's.
    if (route.input !== undefined && [400, 415, 422].includes(answer.status) && declared[answer.status] === undefined) return result
    const schema = declared[answer.status]
    if (schema === undefined) return answer.status >= 200 && answer.status < 300 ? verdict(result, undefined, answer.status) : result
    if (!answer.checkable) return result
    const decoded = decodeSchema(schema, answer.body)
    return decoded instanceof Promise ? decoded.then((d) => verdict(result, d, answer.status)) : verdict(result, decoded, answer.status)
  }
  return (req, ctx: HttpContext) => {
    const result = route.handler(req, ctx)
    return result instanceof Promise ? result.then(inspect) : inspect(result)
  }
}

/**
 * The table with every HTTP route that declares `responses` checking its answers: an answer
 * whose status is declared must fit that status's schema (its JSON body; a plain value is a
 * 200, `undefined` a 204); a 2xx answer must have a declared status. A mismatch is reported
 * to `onMismatch` and answered 500 `{"error":"invalid_response",…}` (or left as it is with
 * `reportOnly`). Bodies that are not JSON (text, bytes, streams) are not checked. Other
 * routes are returned as they are. Use it in development only.
 *
 * @example
 * const table = routes(app)
 * runServer({ routes: process.env.NODE_ENV === 'production' ? table : checkResponses(table, { onMismatch: console.error }) })
 */
export function checkResponses<T extends RouteTable>(table: T, options?: CheckResponsesOptions): T
// Each route keeps its type: only its handler is wrapped, with the same signature.
export function checkResponses(table: RouteTable, options: CheckResponsesOptions = {}): RouteTable {
  return table.map((route): Route => {
    if (route._tag !== 'HttpRoute' || route.responses === undefined) return route
    return { ...route, handler: guard(route, route.responses, options) }
  })
}

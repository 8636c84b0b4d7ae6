/**
 * `checkInput`: a request's params, query, headers and body through the route's schemas,
 * before its handler runs (issue 27). The answer is the decoded inputs, or the response
 * the request gets instead: 415 for a body of a media type the route does not take, 400
 * for a body that does not parse, 422 with every failing place for inputs that do not fit.
 * Synchronous unless the body is multipart (read through `readMultipart`) or a Standard
 * Schema answers with a promise.
 * Pure and portable: no node:* imports.
 */
import * as E from 'fp-ts/lib/Either.js'
import { bodyStreamOf } from '../http/in-process-exchange.js'
import { httpErrorResponse } from '../http/http-error-response.js'
import { invalidJson } from '../http/http-error.js'
import { MultipartReadError, readMultipart } from '../http/multipart/read-multipart.js'
import { isJsonMediaType, mediaType } from '../http/parse-request-body.js'
import type { Request } from '../http/request.js'
import { json } from '../http/response.js'
import type { Response } from '../http/types.js'
import { decodeSchema, type SchemaResult } from './decode-schema.js'
import type { BodyType, HttpInputSchemas } from './http-input.js'
import { invalidInputResponse } from './invalid-input-response.js'
import type { Schema } from './schema.js'
import type { PayloadIssue } from './validation-details.js'

/** The decoded inputs by name, or the answer that replaces the handler's. */
export type InputCheck = E.Either<Response, { readonly [name: string]: unknown }>

/** A file part of a multipart body given to a body schema. */
export interface UploadedFile {
  readonly filename: string
  readonly contentType: string
  readonly bytes: Uint8Array
}

const MEDIA_TYPES: { readonly [K in BodyType]: string } = Object.freeze({
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
})

const bodyTypeOf = (type: string): BodyType | undefined =>
  isJsonMediaType(type) ? 'json' : type === MEDIA_TYPES.form ? 'form' : type === MEDIA_TYPES.multipart ? 'multipart' : undefined

const unsupported = (type: string, accepted: readonly BodyType[]): Response =>
  json(
    {
      error: 'unsupported_media_type',
      message: `expected a body of type ${accepted.map((k) => MEDIA_TYPES[k]).join(' or ')}, got ${type === '' ? 'no Content-Type' : type}`,
    },
    415,
  )

// Multipart fields as a record like a form's (a repeated name holds an array), files as UploadedFile.
const readFormData = async (req: Request): Promise<E.Either<Response, { readonly [name: string]: unknown }>> => {
  const fields = new Map<string, unknown>()
  const add = (name: string, value: unknown): void => {
    const seen = fields.get(name)
    fields.set(name, seen === undefined ? value : Array.isArray(seen) ? [...(seen as unknown[]), value] : [seen, value])
  }
  try {
    for await (const part of readMultipart({ headerMap: req.headerMap, body: bodyStreamOf([req.rawBody], req.rawBody.length) })) {
      if (part.kind === 'field') add(part.name, part.value)
      else add(part.name, { filename: part.filename, contentType: part.contentType, bytes: await part.bytes() } satisfies UploadedFile)
    }
  } catch (error) {
    if (error instanceof MultipartReadError) return E.left(json({ error: error.error.reason, message: error.error.message }, error.error.status))
    throw error
  }
  return E.right(Object.fromEntries(fields))
}

// The body as its schema sees it: undefined when empty, else read by its (accepted) media type.
const bodyValue = (req: Request, accepted: readonly BodyType[]): E.Either<Response, unknown> | Promise<E.Either<Response, unknown>> => {
  if (req.rawBody.length === 0) return E.right(undefined)
  const type = mediaType(req.headerMap.get('content-type'))
  const kind = bodyTypeOf(type)
  if (kind === undefined || !accepted.includes(kind)) return E.left(unsupported(type, accepted))
  if (kind === 'multipart') return readFormData(req)
  // JSON and form bodies were read by media type when the request was built.
  return E.isLeft(req.body) ? E.left(httpErrorResponse(invalidJson())) : E.right(req.body.right)
}

const within = (where: string, issues: readonly PayloadIssue[]): readonly PayloadIssue[] =>
  issues.map((issue) => ({ path: issue.path === '' ? where : `${where}.${issue.path}`, expected: issue.expected }))

type Named = readonly [keyof HttpInputSchemas, SchemaResult<unknown>]

const conclude = (results: readonly Named[]): InputCheck => {
  const input: { [name: string]: unknown } = {}
  const issues: PayloadIssue[] = []
  for (const [name, decoded] of results) {
    if (E.isLeft(decoded)) issues.push(...within(name, decoded.left))
    else input[name] = decoded.right
  }
  return issues.length > 0 ? E.left(invalidInputResponse(issues)) : E.right(input)
}

// Every declared schema on its input; at once when every schema answers at once.
const finish = (req: Request, schemas: HttpInputSchemas, body: unknown): InputCheck | Promise<InputCheck> => {
  const pending: (Named | Promise<Named>)[] = []
  let waiting = false
  const check = (name: keyof HttpInputSchemas, schema: Schema | undefined, value: () => unknown): void => {
    if (schema === undefined) return
    const decoded = decodeSchema(schema, value())
    if (decoded instanceof Promise) {
      waiting = true
      pending.push(decoded.then((result): Named => [name, result]))
    } else pending.push([name, decoded])
  }
  check('params', schemas.params, () => req.params)
  check('query', schemas.query, () => req.query)
  check('headers', schemas.headers, () => Object.fromEntries(req.headerMap))
  check('body', schemas.body, () => body)
  return waiting ? Promise.all(pending).then(conclude) : conclude(pending as readonly Named[])
}

/**
 * Checks `req` against `schemas`. The body is read only when there is a body schema; a body
 * of a media type outside `accepted` is 415 and a JSON body that does not parse 400, before
 * any schema runs; then every schema runs and all their failures make one 422.
 *
 * @example
 * const checked = checkInput(req, { params: t.type({ id: intParam }) }, ['json'])
 * // right({ params: { id: 42 } }) for /users/42, left(422 response) for /users/abc
 */
export const checkInput = (req: Request, schemas: HttpInputSchemas, accepted: readonly BodyType[]): InputCheck | Promise<InputCheck> => {
  if (schemas.body === undefined) return finish(req, schemas, undefined)
  const body = bodyValue(req, accepted)
  if (body instanceof Promise) return body.then((read) => (E.isLeft(read) ? read : finish(req, schemas, read.right)))
  return E.isLeft(body) ? body : finish(req, schemas, body.right)
}

/**
 * `openApi`: an OpenAPI 3.1 document for the HTTP routes of a route table: paths, methods,
 * params, query and header parameters and request bodies from the routes' schemas, and the
 * answers twinport gives for them (422 `invalid_input`, 400, 415). The table is the one
 * contract: the schemas that check a request are the ones the document prints.
 * Pure and portable: no node:* imports.
 */
import type { Json } from '../http/types.js'
import { statusText } from '../http/status-text.js'
import type { BodyType, DeclaredResponses } from '../route/http-input.js'
import type { JsonSchema } from '../route/json-schema.js'
import type { HttpRoute, RouteTable } from '../route/route.js'
import type { Schema } from '../route/schema.js'
import { trimTrailingSlash } from '../route/compile-path.js'
import { type DocumentInfo, errorSchema, issueSchema } from './document-info.js'
import { rebaseRefs } from './rebase-refs.js'
import { type JsonSchemaConverter, toJsonSchema } from './to-json-schema.js'

/** An OpenAPI document, as JSON data. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & { readonly [key: string]: Json }

/** Options of `openApi`. */
export interface OpenApiOptions {
  /** The `servers` list, e.g. `[{ url: 'https://api.example.com' }]`. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[]
  /** The converter for Standard Schemas whose library exposes no JSON Schema (see `toJsonSchema`). */
  readonly jsonSchemaOf?: JsonSchemaConverter
}

// OpenAPI 3.1 §4.8.9: the methods a Path Item can hold.
const METHODS: readonly string[] = Object.freeze(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])

const MEDIA_TYPES: { readonly [K in BodyType]: string } = Object.freeze({
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
  multipart: 'multipart/form-data',
})

const ref = (to: string): { readonly $ref: string } => ({ $ref: to })

// Made for each document, so no two documents share an object.
const components = (): { readonly [key: string]: Json } => ({
  schemas: {
    Error: errorSchema(),
    InvalidInput: {
      type: 'object',
      properties: { error: { const: 'invalid_input' }, message: { type: 'string' }, details: { type: 'array', items: issueSchema() } },
      required: ['error', 'message', 'details'],
    },
  },
  responses: {
    InvalidInput: {
      description: 'The params, query, headers or body do not fit the route: every failing place, its path starting with the input it is in',
      content: { 'application/json': { schema: ref('#/components/schemas/InvalidInput') } },
    },
    BadRequest: { description: 'The body does not parse', content: { 'application/json': { schema: ref('#/components/schemas/Error') } } },
    UnsupportedMediaType: {
      description: 'The body is of a media type the route does not take',
      content: { 'application/json': { schema: ref('#/components/schemas/Error') } },
    },
  },
})

// The document's schemas placed in `components` (self-referring ones) and the operation ids
// given so far: one per document, so no two documents share them; and the caller's converter.
interface Shared {
  readonly schemas: { [name: string]: Json }
  readonly operationIds: Set<string>
  readonly jsonSchemaOf: JsonSchemaConverter | undefined
}

// A schema once described: `schema` to read properties from, `use` to print where it is used
// (a `$ref` to its place in `components` when it refers to itself, `schema` otherwise).
interface Described {
  readonly schema: JsonSchema
  readonly use: JsonSchema
}

const describe = (schema: Schema | undefined, name: string, notes: string[], shared: Shared): Described | undefined => {
  if (schema === undefined) return undefined
  const described = toJsonSchema(schema, { jsonSchemaOf: shared.jsonSchemaOf })
  notes.push(...described.notes)
  const base = `#/components/schemas/${name}`
  const rebased = rebaseRefs(described.schema, base)
  if (rebased === described.schema) return { schema: rebased, use: rebased }
  shared.schemas[name] = rebased
  return { schema: rebased, use: ref(base) }
}

// An object schema's properties and required names; `allOf` members (io-ts intersections) are
// merged, so `t.intersection([t.type(…), t.partial(…)])` gives the parameters of both.
const objectParts = (schema: JsonSchema | undefined): { properties: { [name: string]: Json }; required: string[] } | undefined => {
  if (schema === undefined) return undefined
  const members = schema['allOf']
  if (Array.isArray(members)) {
    const parts = members.map((member) =>
      typeof member === 'object' && member !== null && !Array.isArray(member) ? objectParts(member as JsonSchema) : undefined,
    )
    if (parts.some((part) => part === undefined)) return undefined
    return parts.reduce<{ properties: { [name: string]: Json }; required: string[] }>(
      (all, part) => ({ properties: { ...all.properties, ...part?.properties }, required: [...all.required, ...(part?.required ?? [])] }),
      { properties: {}, required: [] },
    )
  }
  const properties = schema['properties']
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return undefined
  const required = Array.isArray(schema['required']) ? schema['required'].filter((n): n is string => typeof n === 'string') : []
  return { properties: { ...(properties as { readonly [name: string]: Json }) }, required }
}

// OpenAPI 3.1 §4.8.12.1: header parameters with these names are ignored (content types and
// security schemes say them).
const IGNORED_HEADERS: readonly string[] = Object.freeze(['accept', 'content-type', 'authorization'])

// One parameter per property of an object schema (query, header).
const parametersIn = (where: 'query' | 'header', described: Described | undefined, notes: string[]): Json[] => {
  if (described === undefined) return []
  const parts = objectParts(described.schema)
  if (parts === undefined) {
    notes.push(`the ${where} schema is not an object: no ${where} parameters listed`)
    return []
  }
  return Object.entries(parts.properties).map(([name, property]) => {
    if (where === 'header' && IGNORED_HEADERS.includes(name.toLowerCase())) notes.push(`OpenAPI tools ignore a header parameter named ${name}`)
    return { name, in: where, required: parts.required.includes(name), schema: property }
  })
}

const declaredResponses = (declared: DeclaredResponses, id: string, notes: string[], shared: Shared): { [status: string]: Json } =>
  Object.fromEntries(
    Object.entries(declared).map(([status, schema]) => [
      status,
      {
        description: statusText(Number(status)) || `Status ${status}`,
        content: { 'application/json': { schema: describe(schema, `${id}_response_${status}`, notes, shared)?.use ?? {} } },
      },
    ]),
  )

// The path as OpenAPI writes it: one trailing slash dropped (twinport ignores it), `{*rest}` as `{rest}`.
const documentPath = (path: string): string => trimTrailingSlash(path).replace(/\{\*/g, '{')

const pathParams = (path: string): readonly { readonly name: string; readonly rest: boolean }[] =>
  [...trimTrailingSlash(path).matchAll(/\{(\*?)([^}]*)\}/g)].map((m) => ({ name: m[2] as string, rest: m[1] === '*' }))

// Unique in the document (OpenAPI 3.1 §4.8.10.1): `/a-b` and `/a_b` would both be `post_a_b`.
const operationId = (route: HttpRoute, taken: Set<string>): string => {
  const base = `${route.method.toLowerCase()}${route.path.replace(/[{}*]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, '')}`
  let id = base
  for (let n = 2; taken.has(id); n++) id = `${base}_${n}`
  taken.add(id)
  return id
}

const operation = (route: HttpRoute, shared: Shared): { readonly [key: string]: Json } => {
  const notes: string[] = []
  const id = operationId(route, shared.operationIds)
  const input = route.input ?? {}
  const paramProps = objectParts(describe(input.params, `${id}_params`, notes, shared)?.schema)?.properties ?? {}
  const parameters: Json[] = [
    ...pathParams(route.path).map(({ name, rest }) => {
      if (rest) notes.push(`{*${name}} takes the rest of the path, slashes included, and may be empty: more than an OpenAPI path template says`)
      return {
        name,
        in: 'path',
        required: true,
        ...(rest ? { description: 'The rest of the path: zero or more segments, slashes included' } : {}),
        schema: paramProps[name] ?? { type: 'string' },
      }
    }),
    ...parametersIn('query', describe(input.query, `${id}_query`, notes, shared), notes),
    ...parametersIn('header', describe(input.headers, `${id}_headers`, notes, shared), notes),
  ]
  const body = describe(input.body, `${id}_body`, notes, shared)
  const types = route.bodyTypes ?? ['json']
  const responses: { [status: string]: Json } =
    route.responses === undefined ? { default: { description: "The handler's answer" } } : declaredResponses(route.responses, id, notes, shared)
  if (input.body !== undefined) {
    if (types.includes('json')) responses['400'] ??= ref('#/components/responses/BadRequest')
    responses['415'] ??= ref('#/components/responses/UnsupportedMediaType')
  }
  if (Object.keys(input).length > 0) responses['422'] ??= ref('#/components/responses/InvalidInput')
  return {
    operationId: id,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body !== undefined ? { requestBody: { required: true, content: Object.fromEntries(types.map((type) => [MEDIA_TYPES[type], { schema: body.use }])) } } : {}),
    ...(route.body === 'stream' ? { requestBody: { content: { 'application/octet-stream': { schema: {} } } } } : {}),
    responses,
    ...(notes.length > 0 ? { 'x-twinport-notes': notes } : {}),
  }
}

/**
 * The OpenAPI 3.1 document of the table's HTTP routes, in table order. A route's params
 * come from its path, typed by its `params` schema (a string without one); its `query` and
 * `headers` schemas, when they are objects, give one parameter per property; its body
 * schema gives the request body for each of its `bodyTypes`. Answers: the `responses` the
 * route declares (else `default`, the handler's), and, for routes with schemas, 422 (and 400, 415 for a body) as twinport sends
 * them. A Standard Schema whose library exposes no JSON Schema is given to
 * `options.jsonSchemaOf` (Valibot's converter, say). What a schema cannot say is noted in the operation's `x-twinport-notes`. Methods
 * OpenAPI has no field for (anything but GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH,
 * TRACE) are left out.
 *
 * @example
 * const doc = openApi(routes(app), { title: 'Chat', version: '1.0.0' })
 * httpRoute('GET', '/openapi.json', () => doc)
 */
export const openApi = (table: RouteTable, info: DocumentInfo, options: OpenApiOptions = {}): OpenApiDocument => {
  const paths: { [path: string]: { [method: string]: Json } } = {}
  const shared: Shared = { schemas: {}, operationIds: new Set(), jsonSchemaOf: options.jsonSchemaOf }
  for (const route of table) {
    if (route._tag !== 'HttpRoute') continue
    const method = route.method.toLowerCase()
    if (!METHODS.includes(method)) continue
    const item = (paths[documentPath(route.path)] ??= {})
    if (item[method] === undefined) item[method] = operation(route, shared)
  }
  const parts = components()
  return {
    openapi: '3.1.0',
    info: { ...info },
    ...(options.servers !== undefined ? { servers: options.servers.map((server) => ({ ...server })) } : {}),
    paths,
    components: { ...parts, schemas: { ...(parts['schemas'] as { readonly [name: string]: Json }), ...shared.schemas } },
  }
}

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
import { type DocumentInfo, errorSchema, issueSchema } from './document-info.js'
import { toJsonSchema } from './to-json-schema.js'

/** An OpenAPI document, as JSON data. */
export type OpenApiDocument = { readonly openapi: '3.1.0' } & { readonly [key: string]: Json }

/** Options of `openApi`. */
export interface OpenApiOptions {
  /** The `servers` list, e.g. `[{ url: 'https://api.example.com' }]`. */
  readonly servers?: readonly { readonly url: string; readonly description?: string }[]
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

const paramNames = (path: string): readonly string[] => [...path.matchAll(/\{([^}]*)\}/g)].map((m) => m[1] as string)

const schemaOf = (schema: Schema | undefined, notes: string[]): JsonSchema | undefined => {
  if (schema === undefined) return undefined
  const described = toJsonSchema(schema)
  notes.push(...described.notes)
  return described.schema
}

const propertiesOf = (schema: JsonSchema | undefined): { readonly [name: string]: Json } =>
  schema !== undefined && typeof schema['properties'] === 'object' && schema['properties'] !== null && !Array.isArray(schema['properties'])
    ? (schema['properties'] as { readonly [name: string]: Json })
    : {}

const requiredOf = (schema: JsonSchema | undefined): readonly string[] =>
  schema !== undefined && Array.isArray(schema['required']) ? schema['required'].filter((n): n is string => typeof n === 'string') : []

// One parameter per property of an object schema (query, header).
const parametersIn = (where: 'query' | 'header', schema: JsonSchema | undefined): Json[] => {
  const required = requiredOf(schema)
  return Object.entries(propertiesOf(schema)).map(([name, property]) => ({ name, in: where, required: required.includes(name), schema: property }))
}

const declaredResponses = (declared: DeclaredResponses, notes: string[]): { [status: string]: Json } =>
  Object.fromEntries(
    Object.entries(declared).map(([status, schema]) => [
      status,
      { description: statusText(Number(status)) || `Status ${status}`, content: { 'application/json': { schema: schemaOf(schema, notes) ?? {} } } },
    ]),
  )

const operationId = (route: HttpRoute): string =>
  `${route.method.toLowerCase()}${route.path.replace(/[{}]/g, '').replace(/[^A-Za-z0-9]+/g, '_').replace(/_$/, '')}`

const operation = (route: HttpRoute): { readonly [key: string]: Json } => {
  const notes: string[] = []
  const input = route.input ?? {}
  const params = schemaOf(input.params, notes)
  const paramProps = propertiesOf(params)
  const parameters: Json[] = [
    ...paramNames(route.path).map((name) => ({ name, in: 'path', required: true, schema: paramProps[name] ?? { type: 'string' } })),
    ...parametersIn('query', schemaOf(input.query, notes)),
    ...parametersIn('header', schemaOf(input.headers, notes)),
  ]
  const body = schemaOf(input.body, notes)
  const types = route.bodyTypes ?? ['json']
  const responses: { [status: string]: Json } =
    route.responses === undefined ? { default: { description: "The handler's answer" } } : declaredResponses(route.responses, notes)
  if (input.body !== undefined) {
    if (types.includes('json')) responses['400'] ??= ref('#/components/responses/BadRequest')
    responses['415'] ??= ref('#/components/responses/UnsupportedMediaType')
  }
  if (Object.keys(input).length > 0) responses['422'] ??= ref('#/components/responses/InvalidInput')
  return {
    operationId: operationId(route),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body !== undefined ? { requestBody: { required: true, content: Object.fromEntries(types.map((type) => [MEDIA_TYPES[type], { schema: body }])) } } : {}),
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
 * them. What a schema cannot say is noted in the operation's `x-twinport-notes`. Methods
 * OpenAPI has no field for (anything but GET, PUT, POST, DELETE, OPTIONS, HEAD, PATCH,
 * TRACE) are left out.
 *
 * @example
 * const doc = openApi(routes(app), { title: 'Chat', version: '1.0.0' })
 * httpRoute('GET', '/openapi.json', () => doc)
 */
export const openApi = (table: RouteTable, info: DocumentInfo, options: OpenApiOptions = {}): OpenApiDocument => {
  const paths: { [path: string]: { [method: string]: Json } } = {}
  for (const route of table) {
    if (route._tag !== 'HttpRoute') continue
    const method = route.method.toLowerCase()
    if (!METHODS.includes(method)) continue
    const item = (paths[route.path] ??= {})
    if (item[method] === undefined) item[method] = operation(route)
  }
  return {
    openapi: '3.1.0',
    info: { ...info },
    ...(options.servers !== undefined ? { servers: options.servers.map((server) => ({ ...server })) } : {}),
    paths,
    components: components(),
  }
}

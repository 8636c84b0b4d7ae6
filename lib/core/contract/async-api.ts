/**
 * `asyncApi`: an AsyncAPI 3.0 document for the WebSocket side of a route table: the event
 * envelope of docs/protocol.md, each `socketOn` event the application receives with its
 * payload's schema and its ack, the events it declares it sends, and the error event.
 * Pure and portable: no node:* imports.
 */
import type { Json } from '../http/types.js'
import type { JsonSchema } from '../route/json-schema.js'
import type { RouteTable } from '../route/route.js'
import type { Schema } from '../route/schema.js'
import { type DocumentInfo, errorSchema, issueSchema } from './document-info.js'
import { rebaseRefs } from './rebase-refs.js'
import { type JsonSchemaConverter, toJsonSchema } from './to-json-schema.js'

/** An AsyncAPI document, as JSON data. */
export type AsyncApiDocument = { readonly asyncapi: '3.0.0' } & { readonly [key: string]: Json }

/** Options of `asyncApi`. */
export interface AsyncApiOptions {
  /** The WebSocket path clients connect to (default `'/'`; `null`: any path). */
  readonly address?: string | null
  /** Events the server sends (`ctx.emit`, `broadcast`), by name, with their data's schema. */
  readonly emits?: { readonly [event: string]: Schema }
  /** The converter for Standard Schemas whose library exposes no JSON Schema (see `toJsonSchema`). */
  readonly jsonSchemaOf?: JsonSchemaConverter
}

const CHANNEL = '#/channels/events'

// AsyncAPI 3.0: keys of `messages`, `operations` and components match ^[A-Za-z0-9.\-_]+$.
const keyFor = (name: string, taken: Set<string>): string => {
  const base = name.replace(/[^A-Za-z0-9.\-_]/g, '_') || '_'
  let key = base
  for (let n = 2; taken.has(key); n++) key = `${base}_${n}`
  taken.add(key)
  return key
}

const idSchema = (): JsonSchema => ({ type: ['string', 'number'] })

const envelope = (event: string, data: JsonSchema, withId: 'optional' | 'required' | 'none'): JsonSchema => ({
  type: 'object',
  properties: { event: { const: event }, data, ...(withId === 'none' ? {} : { id: idSchema() }) },
  required: withId === 'required' ? ['event', 'id'] : ['event'],
})

const errorData = (): JsonSchema => ({
  ...errorSchema(),
  properties: {
    error: { enum: ['invalid_json', 'invalid_message', 'unknown_event', 'invalid_payload', 'handler_error'] },
    message: { type: 'string' },
    details: { type: 'array', items: issueSchema() },
  },
  required: ['error', 'message'],
})

const ref = (to: string): { readonly $ref: string } => ({ $ref: to })

/**
 * The AsyncAPI 3.0 document of the table's WebSocket events: one channel (`events`, at
 * `address`) whose messages are the envelope `{"event","data","id"}` of each `socketOn`
 * route (data from its schema, `{}` without one), the ack `{"event":"ack","id","data"}`,
 * the error event, and the events of `emits`. Each `socketOn` event is a `receive`
 * operation replied to with the ack (when the message has an `id`); each of `emits` and the
 * error event a `send` operation. Payloads are JSON Schema draft-07 (the base of AsyncAPI
 * 3.0's default schema format); one that refers to itself is placed in `components.schemas`
 * (`<message key>_data`). Schemas that cannot be described are `{}` with a `description`
 * (see `toJsonSchema`), listed in `x-twinport-notes`; a Standard Schema whose library exposes
 * none is given to `options.jsonSchemaOf` when there is one.
 *
 * @example
 * const doc = asyncApi(routes(app), { title: 'Chat', version: '1.0.0' }, { emits: { message: Message } })
 */
export const asyncApi = (table: RouteTable, info: DocumentInfo, options: AsyncApiOptions = {}): AsyncApiDocument => {
  const taken = new Set<string>(['ack', 'error'])
  const notes: string[] = []
  const messages: { [key: string]: Json } = {}
  const channelMessages: { [key: string]: Json } = {}
  const operations: { [key: string]: Json } = {}
  const schemas: { [key: string]: Json } = {}
  // AsyncAPI 3.0's default schema format is a superset of JSON Schema draft-07. A schema that
  // refers to itself gets a place in components, its `$ref`s moved there.
  const dataOf = (schema: Schema | undefined, key: string): JsonSchema => {
    if (schema === undefined) return {}
    const described = toJsonSchema(schema, { target: 'draft-07', jsonSchemaOf: options.jsonSchemaOf })
    notes.push(...described.notes)
    const base = `#/components/schemas/${key}_data`
    const rebased = rebaseRefs(described.schema, base)
    if (rebased === described.schema) return rebased
    schemas[`${key}_data`] = rebased
    return ref(base)
  }
  const addMessage = (key: string, name: string, payload: JsonSchema, summary: string): void => {
    messages[key] = { name, summary, contentType: 'application/json', payload }
    channelMessages[key] = ref(`#/components/messages/${key}`)
  }
  addMessage('ack', 'ack', envelope('ack', {}, 'required'), "The answer to an event sent with an id: the handler's return value")
  addMessage('error', 'error', envelope('error', errorData(), 'optional'), 'What an event that could not be handled gets (with its id when it had one)')
  for (const route of table) {
    if (route._tag !== 'SocketOn') continue
    const key = keyFor(route.event, taken)
    addMessage(key, route.event, envelope(route.event, dataOf(route.codec, key), 'optional'), `The client event "${route.event}"`)
    operations[`receive_${key}`] = {
      action: 'receive',
      channel: ref(CHANNEL),
      messages: [ref(`${CHANNEL}/messages/${key}`)],
      reply: { channel: ref(CHANNEL), messages: [ref(`${CHANNEL}/messages/ack`)] },
    }
  }
  for (const [event, schema] of Object.entries(options.emits ?? {})) {
    const key = keyFor(event, taken)
    addMessage(key, event, envelope(event, dataOf(schema, key), 'none'), `The server event "${event}"`)
    operations[`send_${key}`] = { action: 'send', channel: ref(CHANNEL), messages: [ref(`${CHANNEL}/messages/${key}`)] }
  }
  operations['send_error'] = { action: 'send', channel: ref(CHANNEL), messages: [ref(`${CHANNEL}/messages/error`)] }
  return {
    asyncapi: '3.0.0',
    info: { ...info },
    defaultContentType: 'application/json',
    channels: { events: { address: options.address === undefined ? '/' : options.address, messages: channelMessages } },
    operations,
    components: { messages, ...(Object.keys(schemas).length > 0 ? { schemas } : {}) },
    ...(notes.length > 0 ? { 'x-twinport-notes': notes } : {}),
  }
}

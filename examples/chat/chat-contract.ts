/**
 * `contractRoutes`: the chat demo describing itself. `GET /openapi.json` is the OpenAPI 3.1
 * document of its HTTP routes and `GET /asyncapi.json` the AsyncAPI 3.0 document of its
 * WebSocket events, both generated from the demo's own route table (the codecs that check
 * requests and events are the schemas they print), once, at the first request. Also here:
 * the schemas of what the demo sends (its server events and HTTP answers), which a table
 * cannot know. No node:* imports.
 */
import * as t from 'io-ts'
import { asyncApi, describeCodec, errorSchema, httpRoute, openApi, type RouteTable, routes } from '../../lib/index.js'

/** The `info` of both documents. */
export const CHAT_INFO = {
  title: 'twinport chat demo',
  version: '1.0.0',
  description: 'Rooms over WebSocket (or Server-Sent Events and posts), and a small REST API',
} as const

/** An error answer: `{"error", "message"?}` (`invalid_payload` adds `details`). */
export const ErrorBody = describeCodec(t.type({ error: t.string }), errorSchema())

/** One chat line as members see it (`ChatMessage` of chat-message.ts). */
export const ChatMessageBody = t.type({
  id: t.Int,
  room: t.string,
  name: t.string,
  text: t.string,
  at: describeCodec(t.string, { type: 'string', format: 'date-time' }),
  via: t.keyof({ ws: null, http: null }),
})

/** `GET /api/rooms`, and the `rooms` event: every room with its head count. */
export const RoomList = t.type({ rooms: t.array(t.type({ room: t.string, members: t.number })) })

const Presence = t.type({ room: t.string, name: t.union([t.string, t.undefined]), members: t.number })

/** The events the server sends (see chat-routes.ts), for `asyncApi`'s `emits`. */
export const CHAT_SERVER_EVENTS = {
  joined: Presence,
  left: Presence,
  renamed: t.type({ room: t.string, from: t.string, to: t.string }),
  message: ChatMessageBody,
  rooms: RoomList,
}

/**
 * The two document routes over `table()`, the whole table they are part of (a function, so
 * they can be in it). The documents are made at the first request and kept.
 *
 * @example
 * const table: RouteTable = routes(api, contractRoutes(() => table))
 */
export const contractRoutes = (table: () => RouteTable): RouteTable => {
  let openapi: ReturnType<typeof openApi> | undefined
  let asyncapi: ReturnType<typeof asyncApi> | undefined
  return routes(
    httpRoute('GET', '/openapi.json', () => (openapi ??= openApi(table(), CHAT_INFO))),
    httpRoute('GET', '/asyncapi.json', () => (asyncapi ??= asyncApi(table(), CHAT_INFO, { address: '/', emits: CHAT_SERVER_EVENTS }))),
  )
}

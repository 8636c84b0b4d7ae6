/**
 * `chatRoutes`: the route table of the chat demo, WebSocket events and HTTP side by side.
 *
 * Client events (each validated by a codec of `chat-codecs.ts`; send an `id` to get the
 * reply as an ack, `{ ok: true, ... }` or `{ ok: false, error, message }`):
 *   hello   {name, resume?}  pick or change your name (unique; renames are announced in
 *                            your rooms); the reply's `token`, sent back as `resume` on a
 *                            new connection within the grace period, resumes you: same
 *                            name, same rooms, nothing announced
 *   join    {room}           join a room; the reply lists its members and recent messages
 *   leave   {room}           leave a room
 *   message {room, text}     say something in a room you are in
 * Server events: `joined`/`left` {room, name, members} to the others in the room,
 * `renamed` {room, from, to}, `message` (a ChatMessage), `rooms` {rooms} to everyone when a
 * room's head count changes. A departure is announced only after the grace period.
 *
 * Who is online in a room is the framework's presence (`ctx.presence(room)`, issue 28), not the
 * chat's: every connection in a room is tracked there under its name, so the member list is
 * the same on every node of a cluster. A join's reply lists the names online; the room's
 * members then get each change as `presence:<room>` (a PresenceDiff: `joined`/`left` names),
 * sent by every node to its own members of the room.
 *
 * HTTP: `GET /api/rooms`, `POST /api/rooms/{room}/messages` with JSON `{name, text}` (201 and
 * the message), `GET`/`POST /events`: the same chat over Server-Sent Events and posts, for a page
 * whose WebSocket upgrades are refused (its client's `sseFallback`), `GET /openapi.json` and
 * `GET /asyncapi.json`: the documents of this table (chat-contract.ts), and the page's files through `serveStatic` (`GET /`, `/app.js`, `/app.css`,
 * `/twinport-client.js`: chat-assets.ts).
 */
import * as t from 'io-ts'
import {
  errorResponse,
  type HttpContext,
  type Presence as RoomPresence,
  httpRoute,
  json,
  onDisconnect,
  type RouteTable,
  routes,
  type SocketContext,
  socketOn,
  ssePostRoute,
  sseRoute,
} from '../../lib/index.js'
import { chatAssets } from './chat-assets.js'
import { HelloPayload, PostPayload, RoomParam, RoomPayload, SayPayload } from './chat-codecs.js'
import { ChatMessageBody, contractRoutes, ErrorBody, RoomList } from './chat-contract.js'
import type { ChatMessage, MessageInput } from './chat-message.js'
import type { Presence } from './chat-presence.js'
import type { ChatRooms } from './chat-rooms.js'

/** What the routes work with; `chatServerOptions` builds it. */
export interface ChatDeps {
  readonly rooms: ChatRooms
  readonly presence: Presence
  /** The folder of the page's files (`public/` beside chat-assets.ts by default). */
  readonly publicDir?: string
  readonly newMessage: (input: MessageInput) => ChatMessage
}

/** An application-level refusal, sent as the ack of the event. */
export interface ChatRefusal {
  readonly ok: false
  readonly error: 'name_required' | 'name_taken' | 'too_many_rooms' | 'not_in_room'
  readonly message: string
}

/** The event a room's members get its presence diffs as: `presence:<room>`. */
export const presenceEvent = (room: string): string => `presence:${room}`

// Names as people read a list: ignoring case.
const byName = (a: string, b: string): number => a.localeCompare(b, 'en', { sensitivity: 'base' })

const refuse = (error: ChatRefusal['error'], message: string): ChatRefusal => ({ ok: false, error, message })

/**
 * Builds the route table over the chat state in `deps`. Not annotated as `RouteTable`, so
 * that `typeof` it keeps every event's codec and reply type for `connect<...>`.
 */
export const chatRoutes = (deps: ChatDeps) => {
  const { rooms, presence, publicDir, newMessage } = deps

  // The room's presence topic (named like the room, so its diffs go to the room's members).
  const online = (ctx: SocketContext, room: string): RoomPresence | undefined => ctx.presence?.(room, { event: presenceEvent(room) })
  const track = (ctx: SocketContext, room: string, name: string): void => void online(ctx, room)?.track(ctx.clientId, name)
  // The names online in a room, with `name` (just tracked: the list shows this turn's changes
  // at its end) or without it (just untracked).
  const onlineIn = (ctx: SocketContext, room: string, name: string | undefined, here = true): readonly string[] => {
    const names = new Set(Object.keys(online(ctx, room)?.list() ?? {}))
    if (name !== undefined) void (here ? names.add(name) : names.delete(name))
    return [...names].sort(byName)
  }
  const announceRooms = (ctx: SocketContext | HttpContext): void => ctx.broadcast('rooms', { rooms: rooms.list() })

  const ws = {
    hello: socketOn('hello', HelloPayload, ({ name, resume }, ctx) => {
      const holder = rooms.holderOf(name)
      if (holder !== undefined && holder !== ctx.clientId) {
        // Taken, unless this is its holder back on a new connection within the grace period.
        const fresh = rooms.nameOf(ctx.clientId) === undefined
        if (!fresh || resume === undefined || !presence.resume(holder, resume, ctx.clientId)) {
          return refuse('name_taken', `"${name}" is taken: pick another name`)
        }
        const back = rooms.transfer(holder, ctx.clientId)
        for (const room of back) {
          ctx.joinRoom(room)
          track(ctx, room, name)
        }
        return { ok: true, id: ctx.clientId, name: rooms.nameOf(ctx.clientId), token: resume, rooms: back }
      }
      const before = rooms.nameOf(ctx.clientId)
      const inRooms = rooms.setName(ctx.clientId, name)
      if (before !== undefined && before !== name) {
        for (const room of inRooms) {
          online(ctx, room)?.untrack(ctx.clientId, before)
          track(ctx, room, name)
          ctx.broadcast('renamed', { room, from: before, to: name }, { room })
        }
      }
      return { ok: true, id: ctx.clientId, name, token: presence.tokenFor(ctx.clientId), rooms: inRooms }
    }),
    join: socketOn('join', RoomPayload, ({ room }, ctx) => {
      const outcome = rooms.join(ctx.clientId, room)
      switch (outcome._tag) {
        case 'NameRequired':
          return refuse('name_required', 'send "hello" with your name first')
        case 'TooManyRooms':
          return refuse('too_many_rooms', `you may be in at most ${outcome.limit} rooms`)
        case 'Joined':
          ctx.joinRoom(room)
          track(ctx, room, rooms.nameOf(ctx.clientId) ?? '')
          // The joiner learns it from the reply; a notice about yourself is noise.
          ctx.broadcast('joined', { room, name: rooms.nameOf(ctx.clientId), members: onlineIn(ctx, room, rooms.nameOf(ctx.clientId)).length }, { room, except: ctx.clientId })
          announceRooms(ctx)
          break
        case 'AlreadyIn':
          break
      }
      return { ok: true, room, members: onlineIn(ctx, room, rooms.nameOf(ctx.clientId)), history: outcome.history }
    }),
    leave: socketOn('leave', RoomPayload, ({ room }, ctx) => {
      if (!rooms.leave(ctx.clientId, room)) return refuse('not_in_room', `you are not in "${room}"`)
      ctx.leaveRoom(room)
      online(ctx, room)?.untrack(ctx.clientId)
      ctx.broadcast('left', { room, name: rooms.nameOf(ctx.clientId), members: onlineIn(ctx, room, rooms.nameOf(ctx.clientId), false).length }, { room })
      announceRooms(ctx)
      return { ok: true, room }
    }),
    say: socketOn('message', SayPayload, ({ room, text }, ctx) => {
      const name = rooms.nameOf(ctx.clientId)
      if (name === undefined || !rooms.isIn(ctx.clientId, room)) return refuse('not_in_room', `join "${room}" first`)
      const message = newMessage({ room, name, text, via: 'ws' })
      rooms.record(message)
      ctx.broadcast('message', message, { room })
      return { ok: true, message }
    }),
    // The server has already taken the client out of its rooms, and the framework untracks it
    // from presence (the member lists) by itself. A named client is held for the grace period (it may be a reload): the notice
    // "left" is sent only if it does not come back.
    goodbye: onDisconnect((ctx) => {
      const name = rooms.nameOf(ctx.clientId)
      const gone = (): void => {
        const left = rooms.forget(ctx.clientId)
        for (const room of left) ctx.broadcast('left', { room, name, members: onlineIn(ctx, room, name, false).length }, { room })
        if (left.length > 0) announceRooms(ctx)
      }
      if (name === undefined) gone()
      else presence.hold(ctx.clientId, gone)
    }),
  }

  // The route's inputs are declared: the framework answers a bad room name or body (422 with
  // `invalid_input` details, 400 for JSON that does not parse, 415 for another media type)
  // before the handler runs. A cross-site post never gets here (`originGuard`, a middleware).
  const answers = { 201: ChatMessageBody, 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 415: ErrorBody, 422: ErrorBody }
  const inputs = { params: t.type({ room: RoomParam }), body: PostPayload, responses: answers }
  const postMessage = httpRoute('POST', '/api/rooms/{room}/messages', inputs, (req, ctx) => {
    const { room } = req.input.params
    const { name, text } = req.input.body
    if (!rooms.exists(room)) return errorResponse(404, `no room "${room}": a room exists while someone is in it`)
    const message = newMessage({ room, name, text, via: 'http' })
    rooms.record(message)
    ctx.broadcast('message', message, { room })
    return json(message, 201)
  })

  const http = {
    listRooms: httpRoute('GET', '/api/rooms', { responses: { 200: RoomList } }, () => ({ rooms: rooms.list() })),
    postMessage,
    // Where the page's client goes when a proxy refuses its WebSocket: the stream is a client of
    // the same registry (hello, rooms, sessions), the posts carry what it sends.
    events: sseRoute('/events'),
    eventPosts: ssePostRoute('/events'),
  }

  // The page and its files last: `GET /{*path}` takes what no API route took. The documents
  // describe the whole table, themselves included.
  const documents: RouteTable = contractRoutes(() => table)
  const table = routes(ws, http, documents, chatAssets(publicDir))
  return table
}

/**
 * A chat on Cloudflare Workers with `twinport/workers`: `GET /hello` over HTTP (toFetch), and
 * a WebSocket route table run unchanged in Durable Object hubs: rooms (`join`, `leave`),
 * broadcasts to a room (`say`), acks, typed payloads (io-ts codecs: a bad payload gets an
 * `invalid_payload` error event), an identity from the upgrade (`?user=<name>`, refused with
 * 401 without one), connect and disconnect hooks, a kick, and HTTP routes that broadcast to
 * the `/chat` hub (`POST /rooms/{room}/messages`, `POST /announce`), and a `/staff` hub only
 * `ada` may open (an upgrade guard: 403 in the Worker for anyone else), and an event stream
 * (`GET /events`) that Workers answer 501 as documented. Deployed with `wrangler deploy`
 * (wrangler.toml beside it); spec/workers/to-worker.spec.ts bundles it and runs it on workerd.
 *
 * In an app of your own, import from `twinport/workers` instead of the relative path.
 */
import * as t from 'io-ts'
import { admit, clientDataOf, forbidden, httpRoute, json, onConnect, onDisconnect, parseQuery, socketOn, sseRoute, toWorker, unauthorized, upgradeGuard, upgradeMiddleware } from '../../lib/workers/index.js'

interface Identity {
  readonly user: string
}

const Room = t.type({ room: t.string })
const Say = t.type({ room: t.string, text: t.string })
const Text = t.type({ text: t.string })

// The upgrade's middleware runs in the Worker, before any Durable Object is woken.
const identify = upgradeMiddleware<Identity>((request) => {
  const user = parseQuery(request.rawQuery)['user']
  return typeof user === 'string' && user !== '' ? admit({ user }) : unauthorized('who are you? add ?user=<name>')
})

const routes = [
  // After `identify`: only ada opens the /staff hub; anyone else gets 403 before any hub wakes.
  upgradeGuard('/staff', (request) => (parseQuery(request.rawQuery)['user'] === 'ada' ? admit({}) : forbidden('staff only'))),
  httpRoute('GET', '/hello', () => ({ hello: 'world' })),
  // HTTP reaches the hubs broadcastHubs names: a post to a room goes to its members there,
  // an announcement to every client of those hubs.
  httpRoute('POST', '/rooms/{room}/messages', { body: Text }, (req, ctx) => {
    const { room } = req.params
    ctx.broadcast('said', { room, text: req.input.body.text, user: 'http' }, { room })
    return json({ sent: true }, 202)
  }),
  httpRoute('POST', '/announce', { body: Text }, (req, ctx) => {
    ctx.broadcast('announce', req.input.body.text)
    return json({ sent: true }, 202)
  }),
  // The same table under runServer, attach or toFetch streams the lobby's events here; on Workers
  // an event stream is answered 501 (it would be a client of the one isolate that answered it,
  // out of reach of the hubs' broadcasts): said here so the table runs unchanged everywhere.
  sseRoute('/events', { rooms: ['lobby'] }),
  onConnect((ctx) => ctx.emit('welcome', { id: ctx.clientId, user: clientDataOf<Identity>(ctx).user })),
  onDisconnect((ctx) => ctx.broadcast('left', { id: ctx.clientId, user: clientDataOf<Identity>(ctx).user })),
  socketOn('join', Room, ({ room }, ctx) => {
    ctx.joinRoom(room)
    ctx.broadcast('joined', { room, user: clientDataOf<Identity>(ctx).user }, { room, except: ctx.clientId })
    return { room, id: ctx.clientId }
  }),
  socketOn('leave', Room, ({ room }, ctx) => ctx.leaveRoom(room)),
  socketOn('say', Say, ({ room, text }, ctx) => {
    ctx.broadcast('said', { room, text, user: clientDataOf<Identity>(ctx).user }, { room })
    return 'sent'
  }),
  socketOn('whoami', (_data, ctx) => ({ id: ctx.clientId, user: clientDataOf<Identity>(ctx).user, path: ctx.request.path })),
  socketOn('note', t.string, (note, ctx) => ctx.setClientData('note', note)),
  socketOn('my-note', (_data, ctx) => ctx.getClientData('note') ?? null),
  socketOn('kick-me', (_data, ctx) => ctx.disconnectClient(undefined, { code: 4001, reason: 'asked for it' })),
]

const app = toWorker({ routes, httpMiddleware: [identify], broadcastHubs: ['/chat'] })

/** The Durable Object class: bound as `TWINPORT_HUB` (wrangler.toml). */
export const TwinportHub = app.Hub

export default { fetch: app.fetch }

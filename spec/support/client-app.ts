/**
 * The application the client specs talk to: a real twinport route table (events with and
 * without codecs, acks of every kind, a request that waits for a gate, a broadcast, HTTP
 * routes) and the map of events it sends, shared by the server and the typed client as an
 * application would share them.
 */
import * as t from 'io-ts'
import type { SocketContext } from '../../lib/core/route/socket-context.js'
import { declareBody, httpRoute, json, onMessage, readJsonBody, routes, socketOn, text } from '../../lib/index.js'
import { isRight } from 'fp-ts/lib/Either.js'

/** What the server sends to clients, by event name. */
export interface AppEvents {
  readonly said: { readonly room: string; readonly text: string }
  readonly tick: number
  readonly open: string
}

/** Server-side state the specs look at. */
export interface AppState {
  /** Data of every `record` event, in arrival order. */
  readonly recorded: unknown[]
  /** How many times `count` ran. */
  calls: number
  /** Opens the gate the `gate` requests wait for; answers with `value`. */
  release(value: string): void
}

const Room = t.type({ room: t.string })
const Say = t.type({ room: t.string, text: t.string })
const Note = t.type({ text: t.string })

/** The route table, over fresh state. */
export const clientApp = () => {
  const recorded: unknown[] = []
  let open: (value: string) => void = () => undefined
  let gate = new Promise<string>((resolve) => (open = resolve))
  const state: AppState = {
    recorded,
    calls: 0,
    release: (value) => {
      open(value)
      gate = new Promise<string>((resolve) => (open = resolve))
    },
  }
  const emitTo = (ctx: SocketContext, event: keyof AppEvents, data: AppEvents[keyof AppEvents]): void => ctx.emit(event, data)
  const table = routes(
    {
      echo: socketOn('echo', (data) => data),
      join: socketOn('join', Room, ({ room }, ctx) => {
        ctx.joinRoom(room)
        return { ok: true as const, room }
      }),
      say: socketOn('say', Say, ({ room, text: said }, ctx) => ctx.broadcast('said', { room, text: said }, { room })),
      record: socketOn('record', (data) => {
        recorded.push(data)
      }),
      count: socketOn('count', () => {
        state.calls += 1
        return state.calls
      }),
      gate: socketOn('gate', () => gate),
      boom: socketOn('boom', () => {
        throw new Error('boom')
      }),
      whoami: socketOn('whoami', (_data, ctx) => ctx.clientId),
      ticks: socketOn('ticks', t.number, (n, ctx) => {
        for (let i = 1; i <= n; i++) emitTo(ctx, 'tick', i)
        return n
      }),
      reserved: socketOn('reserved', (_data, ctx) => emitTo(ctx, 'open', 'not a lifecycle event')),
      maybe: socketOn('maybe', t.boolean, (yes) => (yes ? 'yes' : undefined)),
    },
    [
      httpRoute('GET', '/api/rooms/{room}', (req) => ({ room: req.params.room, members: 2 })),
      httpRoute('GET', '/api/search', (req) => ({ q: req.query['q'] ?? null })),
      declareBody<{ readonly text: string }>()(
        httpRoute('POST', '/api/rooms/{room}/notes', (req) => {
          const body = readJsonBody(req)
          const note = isRight(body) ? Note.decode(body.right) : body
          if (!isRight(note)) return json({ error: 'invalid_payload' }, 400)
          return json({ room: req.params.room, text: note.right.text, id: 1 }, 201)
        }),
      ),
      httpRoute('DELETE', '/api/rooms/{room}', () => undefined),
      httpRoute('GET', '/plain', () => text('plain words')),
    ],
  )
  return { table, state }
}

/** The type of the route table, as a client imports it. */
export type ClientApp = ReturnType<typeof clientApp>['table']

/** A raw route (no envelope) for specs that need one. */
export const rawEcho = onMessage((message) => message)

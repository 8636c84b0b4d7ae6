/**
 * The layout of a WebSocket connection (lib/engine/connection/ws-connection.ts): what were four boolean
 * fields (`closing`, `alive`, `waiting`, `serverClosed`) are bits of one number; the client
 * session, batching, the fragments' assembly, the close code and the close timer live in a
 * record made the first time one of them is set to something else than it starts as; and
 * the connection is its client (`ClientContext` extends it): the socket and the context are the
 * client's, the server's shared record is on the server's prototype. For any sequence of assignments, each reads back as a
 * field of its own would, starting from what the fields started as. Portable (Node, Bun, Deno).
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type AssemblyState, initialAssembly } from '../../../lib/core/ws/assemble-message.js'
import type { ClientSession } from '../../../lib/engine/recovery/client-session.js'
import type { WsConnection } from '../../../lib/engine/connection/ws-connection.js'
import { type ClientOps, clientContexts } from '../../../lib/engine/connection/client-context.js'
import type { WsShared } from '../../../lib/engine/connection/ws-shared.js'

// The session's fields as the code inside the class sees them (the private ones included).
interface Fields {
  closing: boolean
  alive: boolean
  waiting: boolean
  serverClosed: boolean
  peerCloseCode: number | undefined
  closeTimer: unknown
  session: ClientSession | undefined
  batch: number
  outbox: string[] | undefined
  assembly: AssemblyState
}
type Assignment = { [K in keyof Fields]: readonly [K, Fields[K]] }[keyof Fields]

const FIRST: Fields = {
  closing: false, alive: true, waiting: false, serverClosed: false, peerCloseCode: undefined, closeTimer: undefined,
  session: undefined, batch: 0, outbox: undefined, assembly: initialAssembly,
}
const NAMES = Object.keys(FIRST) as (keyof Fields)[]

const assignmentArb: fc.Arbitrary<Assignment> = fc.oneof(
  fc.tuple(fc.constantFrom('closing' as const, 'alive' as const, 'waiting' as const, 'serverClosed' as const), fc.boolean()),
  fc.tuple(fc.constant('peerCloseCode' as const), fc.option(fc.integer({ min: 1000, max: 4999 }), { nil: undefined })),
  fc.tuple(fc.constant('closeTimer' as const), fc.oneof(fc.constant(undefined), fc.integer(), fc.object())),
  fc.tuple(fc.constant('session' as const), fc.constantFrom(undefined, { clientId: 7 } as unknown as ClientSession)),
  fc.tuple(fc.constant('batch' as const), fc.oneof(fc.integer({ min: 0, max: 2 }), fc.nat())),
  fc.tuple(fc.constant('outbox' as const), fc.option(fc.array(fc.string(), { maxLength: 3 }), { nil: undefined })),
  fc.tuple(fc.constant('assembly' as const), fc.constantFrom(initialAssembly, { _tag: 'Text', texts: [], size: 0 } as unknown as AssemblyState)),
)

// Each field set to what it starts as: never makes the record of the few.
const defaultArb: fc.Arbitrary<Assignment> = fc.constantFrom(...NAMES.filter((name) => !['closing', 'alive', 'waiting', 'serverClosed'].includes(name)).map((name) => [name, FIRST[name]] as Assignment))

// Nothing of the server is used by the fields: a session made for reading them back, as the
// engine makes it: a client of the server's class, its own WebSocket connection.
const Clients = clientContexts<object>({} as ClientOps, {} as WsShared<object>)
const sessionOf = (socket: object): WsConnection<object> => {
  const client = new Clients(1, socket, { receive: () => undefined, peerEnded: () => undefined })
  client.receiver = client
  return client
}

const read = (session: WsConnection<object>): Fields => {
  const view = session as unknown as Fields
  return Object.fromEntries(NAMES.map((name) => [name, view[name]])) as unknown as Fields
}

test('WsConnection :: the flags, close code and close timer read back as the fields they replace', () => {
  fc.assert(
    fc.property(fc.array(assignmentArb, { maxLength: 40 }), (assignments) => {
      const socket = {}
      const session = sessionOf(socket)
      const model: Fields = { ...FIRST }
      assert.equal(read(session), model)
      for (const [name, value] of assignments) {
        ;(session as unknown as Record<string, unknown>)[name] = value
        ;(model as unknown as Record<string, unknown>)[name] = value
        assert.equal(read(session), model)
      }
      assert.is(session.socket, socket)
    }),
    { numRuns: 300 },
  )
})

test('WsConnection :: each field, set first on a fresh session, reads back', () => {
  fc.assert(
    fc.property(assignmentArb, ([name, value]) => {
      const session = sessionOf({})
      ;(session as unknown as Record<string, unknown>)[name] = value
      assert.equal(read(session), { ...FIRST, [name]: value })
    }),
    { numRuns: 500 },
  )
})

test('WsConnection :: the fields set to what they start as (and the flags, to anything) make no record of the few', () => {
  fc.assert(
    fc.property(fc.array(fc.oneof(defaultArb, fc.tuple(fc.constantFrom('closing' as const, 'alive' as const, 'waiting' as const, 'serverClosed' as const), fc.boolean())), { maxLength: 20 }), (assignments) => {
      const session = sessionOf({})
      for (const [name, value] of assignments) (session as unknown as Record<string, unknown>)[name] = value
      assert.is((session as unknown as { more: unknown }).more, undefined)
    }),
  )
})

// Nine since issue 31 (`lastBroadcast`, a small integer, keeps each client's order across sliced
// broadcasts); seven since issue 32: the connection is its client (`ctx` and `socket` are the
// client's, `shared` is on the server's prototype), one object of thirteen fields with the client's six.
test('WsConnection :: an idle session has seven fields of its own, is its client, and its socket is its client\'s', () => {
  const socket = {}
  const session = sessionOf(socket)
  assert.is(session.socket, socket)
  assert.is(session.ctx, session)
  const own = ['deflate', 'flags', 'inFlight', 'lastBroadcast', 'more', 'partial', 'queue']
  const client = ['data', 'id', 'receiver', 'remoteAddress', 'request', 'socket']
  assert.equal(Object.keys(session).sort(), [...own, ...client].sort())
  session.peerCloseCode = 1000
  assert.equal((session as unknown as { more: unknown }).more, {
    session: undefined, batch: 0, outbox: undefined, assembly: initialAssembly, peerCloseCode: 1000, closeTimer: undefined, linkTrace: undefined,
  })
})

test.run()

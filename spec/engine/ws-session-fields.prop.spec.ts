/**
 * The layout of a WebSocket session (lib/engine/ws-session.ts): what were four boolean
 * fields (`closing`, `alive`, `waiting`, `serverClosed`) are bits of one number, the close
 * code and close timer live in a record made when the end begins, and the socket is read
 * from the client. For any sequence of assignments, each reads back as a field of its own
 * would, starting from what the fields started as. Portable (Node, Bun, Deno).
 */
import fc from 'fast-check'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { SocketContext } from '../../lib/core/route/socket-context.js'
import { WsSession, type WsShared } from '../../lib/engine/ws-session.js'

// The session's fields as the code inside the class sees them (the private ones included).
interface Fields {
  closing: boolean
  alive: boolean
  waiting: boolean
  serverClosed: boolean
  peerCloseCode: number | undefined
  closeTimer: unknown
}
type Assignment = { [K in keyof Fields]: readonly [K, Fields[K]] }[keyof Fields]

const FIRST: Fields = { closing: false, alive: true, waiting: false, serverClosed: false, peerCloseCode: undefined, closeTimer: undefined }
const NAMES = Object.keys(FIRST) as (keyof Fields)[]

const assignmentArb: fc.Arbitrary<Assignment> = fc.oneof(
  fc.tuple(fc.constantFrom('closing' as const, 'alive' as const, 'waiting' as const, 'serverClosed' as const), fc.boolean()),
  fc.tuple(fc.constant('peerCloseCode' as const), fc.option(fc.integer({ min: 1000, max: 4999 }), { nil: undefined })),
  fc.tuple(fc.constant('closeTimer' as const), fc.oneof(fc.constant(undefined), fc.integer(), fc.object())),
)

// Nothing of the server is used by the fields: a session made for reading them back.
const sessionOf = (socket: object): WsSession<object> => {
  const ctx = { socket, clientId: 1 } as unknown as SocketContext & { readonly socket: object }
  return new WsSession(ctx, {} as WsShared<object>)
}

const read = (session: WsSession<object>): Fields => {
  const view = session as unknown as Fields
  return Object.fromEntries(NAMES.map((name) => [name, view[name]])) as unknown as Fields
}

test('WsSession :: the flags, close code and close timer read back as the fields they replace', () => {
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
  )
})

test('WsSession :: an idle session keeps no end record, and its socket is its client\'s', () => {
  const socket = {}
  const session = sessionOf(socket)
  assert.is(session.socket, socket)
  assert.is((session as unknown as { ending: unknown }).ending, undefined)
  session.serverClosed = true
  assert.is((session as unknown as { ending: unknown }).ending, undefined)
  session.peerCloseCode = 1000
  assert.equal((session as unknown as { ending: unknown }).ending, { peerCloseCode: 1000, closeTimer: undefined })
})

test.run()

/**
 * `clientContexts`: one object per connection, the engine's record of it and, after the
 * upgrade, its handlers' `SocketContext`. Its operations reach the server's `ClientOps`
 * with the client's id, also when destructured; the server's record is not on every client.
 * The client is its WebSocket connection too (`WsConnection` is its base class).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { HttpRequest } from '../../../lib/core/http/types.js'
import { rawText } from '../../../lib/core/route/raw-message.js'
import type { Receiver } from '../../../lib/engine/connection/client.js'
import { type ClientOps, clientContexts } from '../../../lib/engine/connection/client-context.js'
import type { WsShared } from '../../../lib/engine/connection/ws-shared.js'

const request: HttpRequest = {
  method: 'GET', target: '/chat', path: '/chat', rawQuery: '', protocol: 'HTTP/1.1',
  headers: [['Host', 'x']], trailers: [], body: new Uint8Array(0), keepAlive: true, expectContinue: false,
}
const receiver: Receiver = { receive: () => undefined, peerEnded: () => undefined }
// What the server's connections share: not read by these tests.
const shared = {} as WsShared<string>

const recording = (calls: unknown[][]): ClientOps => ({
  send: (...args) => (calls.push(['send', ...args]), true),
  broadcast: (...args) => (calls.push(['broadcast', ...args]), 2),
  sendRaw: (...args) => (calls.push(['sendRaw', ...args]), true),
  broadcastRaw: (...args) => (calls.push(['broadcastRaw', ...args]), 2),
  joinRoom: (...args) => void calls.push(['joinRoom', ...args]),
  leaveRoom: (...args) => void calls.push(['leaveRoom', ...args]),
  disconnectClient: (...args) => void calls.push(['disconnectClient', ...args]),
  setClientData: (...args) => void calls.push(['setClientData', ...args]),
  getClientData: (...args) => (calls.push(['getClientData', ...args]), 'v'),
  requestClient: (...args) => (calls.push(['requestClient', ...args]), Promise.resolve({ _tag: 'Unanswered', clientId: args[0], error: 'timeout' } as const)),
  requestRoom: (...args) => (calls.push(['requestRoom', ...args]), Promise.resolve([])),
})

test('clientContexts :: an HTTP connection until its request is set, then a WebSocket client', () => {
  const Clients = clientContexts<string>(recording([]), shared)
  const client = new Clients(7, 'socket', receiver)
  assert.equal([client.type, client.id, client.clientId, client.socket, client.data], ['http', 7, 7, 'socket', undefined])
  client.request = request
  assert.is(client.type, 'ws')
  assert.is(client.request, request)
  client.id = 3 // a resumed session's id
  assert.is(client.clientId, 3)
})

test('clientContexts :: destructured operations act for the client; the others name theirs', () => {
  const calls: unknown[][] = []
  const client = new (clientContexts<string>(recording(calls), shared))(5, 's', receiver)
  const { emit, send, broadcast, sendRaw, broadcastRaw, joinRoom, leaveRoom, disconnectClient, setClientData, getClientData } = client
  emit('e', 1)
  send(9, 'e', 2)
  broadcast('b', 3, { room: 'r' })
  sendRaw(rawText('x'))
  sendRaw(rawText('y'), 9)
  broadcastRaw(rawText('z'), undefined)
  joinRoom('r')
  leaveRoom('r', '/ns')
  disconnectClient()
  disconnectClient(9)
  setClientData('k', 4)
  assert.is(getClientData('k'), 'v')
  assert.equal(calls, [
    ['send', 5, 'e', 1], ['send', 9, 'e', 2], ['broadcast', 'b', 3, { room: 'r' }], ['sendRaw', 5, rawText('x')], ['sendRaw', 9, rawText('y')],
    ['broadcastRaw', rawText('z'), undefined], ['joinRoom', 5, 'r', undefined], ['leaveRoom', 5, 'r', '/ns'], ['disconnectClient', 5, undefined],
    ['disconnectClient', 9, undefined], ['setClientData', 5, 'k', 4], ['getClientData', 5, 'k'],
  ])
})

test('clientContexts :: the server operations are on the prototype, JSON shows the id and the request', () => {
  const client = new (clientContexts<string>(recording([]), shared))(1, 'socket', receiver)
  client.request = request
  // Its own six and its WebSocket connection's seven (the client is the connection, issue 32).
  assert.equal(Object.keys(client).sort(), ['data', 'deflate', 'flags', 'id', 'inFlight', 'lastBroadcast', 'more', 'partial', 'queue', 'receiver', 'remoteAddress', 'request', 'socket'])
  assert.is(client.ctx, client)
  assert.equal(JSON.parse(JSON.stringify(client)), { clientId: 1, request: { ...request, body: {} } })
})

test.run()

/**
 * Handshake identity (issue 28): what the HTTP middleware gives an upgrade (`ctx.handshake`,
 * `upgradeMiddleware`) is the client's data from onConnect on, kept by its session, locally
 * and through a shared recovery store on another node.
 */
import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from '../../lib/core/http/parse-query.js'
import { unauthorized } from '../../lib/core/http/response.js'
import { clientDataOf } from '../../lib/core/route/client-data-of.js'
import type { HttpMiddleware } from '../../lib/core/route/http-middleware.js'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { admit, upgradeMiddleware } from '../../lib/core/route/upgrade-middleware.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import { encodeFrameBytes } from '../../lib/core/ws/encode-frame.js'
import { OPCODE } from '../../lib/core/ws/frame.js'
import { inProcessCluster } from '../../lib/engine/cluster/in-process-cluster.js'
import type { Client } from '../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../lib/engine/create-engine.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'
import { memoryPlatform, type MemorySocket } from '../support/memory-platform.js'
import { memoryRecoveryStore } from '../support/memory-recovery-store.js'

const utf8 = new TextEncoder()
const tick = (ms = 15): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

interface Identity {
  readonly user: string
}
const auth = upgradeMiddleware<Identity>((req) => {
  const token = parseQuery(req.rawQuery)['token']
  return typeof token === 'string' && token.startsWith('t-') ? admit({ user: token.slice(2) }) : unauthorized('bad token')
})
const connected: unknown[] = []
const routes = [
  onConnect((ctx) => void connected.push(ctx.getClientData('user'))),
  socketOn('whoami', (_data, ctx) => clientDataOf<Identity>(ctx).user),
]

interface Conn {
  readonly socket: MemorySocket
  readonly client: Client<MemorySocket>
}
const open = async (engine: Engine<MemorySocket>, query: string): Promise<Conn> => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  const client = engine.accept(socket) as Client<MemorySocket>
  client.receiver.receive(utf8.encode(`GET /?${query} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`))
  await tick()
  return { socket, client }
}
const say = (c: Conn, text: string): void => c.client.receiver.receive(encodeFrameBytes({ opcode: OPCODE.TEXT, payload: utf8.encode(text) }, Uint8Array.of(1, 2, 3, 4)))
const written = (c: Conn): string => new TextDecoder('latin1').decode(Uint8Array.from(c.socket.out.flatMap((b) => [...b])))
// The JSON messages the server wrote after the 101's head.
const messages = (c: Conn): Record<string, unknown>[] => {
  const all = Uint8Array.from(c.socket.out.flatMap((b) => [...b]))
  let rest: Uint8Array = all.subarray(written(c).indexOf('\r\n\r\n') + 4)
  const out: Record<string, unknown>[] = []
  for (;;) {
    const step = decodeFrame(rest, { maxPayload: 1 << 20, requireMask: false })
    if (E.isLeft(step) || step.right._tag === 'NeedMore') break
    if (step.right.value.opcode === OPCODE.TEXT) out.push(JSON.parse(new TextDecoder().decode(step.right.value.payload)) as Record<string, unknown>)
    rest = step.right.rest
  }
  return out
}
const drop = (engine: Engine<MemorySocket>, c: Conn): void => {
  c.socket.closed = true
  engine.closed(c.client)
}
const engineWith = (options: ServerOptions = {}): Engine<MemorySocket> => createEngine({ routes, httpMiddleware: [auth], ...options }, memoryPlatform())

test('handshake :: the data an upgrade middleware admits with is seen by onConnect and every handler', async () => {
  connected.length = 0
  const engine = engineWith()
  const ada = await open(engine, 'token=t-ada')
  say(ada, '{"event":"whoami","id":1}')
  await tick()
  assert.equal(connected, ['ada'])
  assert.equal(messages(ada), [{ event: 'ack', id: 1, data: 'ada' }])
  assert.equal(engine.handle.getClientData(ada.client.id), { user: 'ada' })
  drop(engine, ada)
  await engine.handle.close()
})

test('handshake :: a refused upgrade is answered 401, runs no connect handler, keeps no client', async () => {
  connected.length = 0
  const engine = engineWith()
  const refused = await open(engine, 'token=nope')
  assert.match(written(refused), /^HTTP\/1\.1 401 /)
  assert.ok(refused.socket.ended)
  assert.equal(connected, [])
  drop(engine, refused)
  assert.equal(engine.handle.clients(), [])
  await engine.handle.close()
})

test('handshake :: a plain HTTP middleware sees ctx.handshake on upgrades only', async () => {
  const seen: boolean[] = []
  const tag: HttpMiddleware = (req, next, ctx) => {
    seen.push(ctx.handshake !== undefined)
    ctx.handshake?.setClientData('path', req.path)
    return next()
  }
  const engine = createEngine({ routes, httpMiddleware: [tag] }, memoryPlatform())
  const http: Conn = { socket: { out: [], ended: false, closed: false }, client: undefined as unknown as Client<MemorySocket> }
  const client = engine.accept(http.socket) as Client<MemorySocket>
  client.receiver.receive(utf8.encode('GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n'))
  const ws = await open(engine, 'x=1')
  assert.equal(seen, [false, true])
  assert.equal(engine.handle.getClientData(ws.client.id), { path: '/' })
  drop(engine, ws)
  drop(engine, { socket: http.socket, client })
  await engine.handle.close()
})

test('handshake :: the data survives a session recovery; a resume admitted with new data has it over the old', async () => {
  const engine = engineWith()
  const first = await open(engine, 'token=t-ada&tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  engine.handle.setClientData(first.client.id, 'score', 3)
  const id = first.client.id
  drop(engine, first)
  const back = await open(engine, `token=t-ada2&tp_v=1&tp_sid=${sid}&tp_last=0`)
  assert.is(back.client.id, id)
  assert.equal((messages(back)[0]?.['data'] as { recovered: boolean }).recovered, true)
  assert.equal(engine.handle.getClientData(id), { user: 'ada2', score: 3 })
  drop(engine, back)
  await engine.handle.close()
})

test('handshake :: the data crosses nodes with the session, through the shared recovery store', async () => {
  const store = memoryRecoveryStore()
  const a = engineWith({ cluster: inProcessCluster('a'), recovery: { store, flushMs: 1 } })
  const b = engineWith({ cluster: inProcessCluster('b'), recovery: { store, flushMs: 1 } })
  const first = await open(a, 'token=t-ada&tp_v=1')
  const sid = (messages(first)[0]?.['data'] as { sid: string }).sid
  await tick()
  assert.equal(store.sessions.get(sid)?.data, { user: 'ada' })
  drop(a, first)
  const back = await open(b, `token=t-ada&tp_v=1&tp_sid=${sid}&tp_last=0`)
  assert.equal((messages(back)[0]?.['data'] as { recovered: boolean }).recovered, true)
  say(back, '{"event":"whoami","id":2}')
  await tick()
  assert.equal(messages(back).slice(1), [{ event: 'ack', id: 2, data: 'ada', seq: 1 }])
  drop(b, back)
  await Promise.all([a.handle.close(), b.handle.close()])
})

test.run()

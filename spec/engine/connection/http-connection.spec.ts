/**
 * The engine's HTTP connection on an in-memory platform (portable: runs in Node, Bun and Deno):
 * pipelined answers given synchronously leave together and in order, a `Connection: close`
 * among them ends the connection after its answer, requests split anywhere are read the
 * same, and a JSON body that cannot be encoded goes out as 500 and is reported once.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LogEntry } from '../../../lib/core/log/logger.js'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import { json, response, text } from '../../../lib/core/http/response.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import { acceptMemorySocket, memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('')
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

const cyclic: Record<string, unknown> = {}
cyclic.self = cyclic

const start = () => {
  const entries: LogEntry[] = []
  const engine = createEngine(
    {
      routes: [
        httpRoute('GET', '/a', () => text('a')),
        httpRoute('GET', '/b', () => json({ b: 1 })),
        httpRoute('POST', '/echo', (req) => response(req.rawBody)),
        httpRoute('GET', '/cyclic', () => response(cyclic as never)),
      ],
      logger: makeLogger((e) => entries.push(e)),
    },
    memoryPlatform<MemorySocket>(),
  )
  return { entries, ...acceptMemorySocket(engine) }
}

// The bodies of the responses written, in order, and their status codes.
const answers = (socket: MemorySocket): string[] =>
  latin1(Uint8Array.from(socket.out.flatMap((b) => Array.from(b))))
    .split(/(?=HTTP\/1\.1 )/)
    .map((r) => `${r.slice(9, 12)} ${r.slice(r.indexOf('\r\n\r\n') + 4)}`)

// A body that comes after its head is read once the route asks for it: answered a turn later.
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

const GET = (path: string, extra = ''): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:6391\r\n${extra}\r\n`

test('HttpConnection :: pipelined requests answered synchronously leave in one write, in request order', async () => {
  const { socket, client, stop } = start()
  client.receiver.receive(enc(GET('/a') + GET('/b') + GET('/a') + 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhi' + GET('/nope')))
  assert.is(socket.out.length, 1)
  assert.equal(answers(socket), ['200 a', '200 {"b":1}', '200 a', '200 hi', '404 {"error":"not_found"}'])
  assert.is(socket.ended, false)
  await stop()
})

// The scan tells the session whether a field is named Upgrade (also when the line is read
// again from the line memo): only then is the WebSocket check made.
test('HttpConnection :: an Upgrade field is seen on the fast path, read anew or again: h2c is answered, websocket goes to the upgrade decision', async () => {
  const { socket, client, stop } = start()
  client.receiver.receive(enc(GET('/a', 'Upgrade: h2c\r\n') + GET('/a', 'Upgrade: h2c\r\n') + GET('/a', 'upgrade: websocket\r\n') + GET('/a')))
  const written = answers(socket)
  assert.equal(written.slice(0, 2), ['200 a', '200 a'])
  assert.is(written.length, 3)
  assert.is((written[2] as string).slice(0, 3), '400')
  assert.is(socket.ended, true)
  await stop()
})

test('HttpConnection :: Connection: close among pipelined requests ends the connection after its answer; nothing after it runs', async () => {
  const { socket, client, stop } = start()
  client.receiver.receive(enc(GET('/a') + GET('/b', 'Connection: close\r\n') + GET('/a')))
  assert.equal(answers(socket), ['200 a', '200 {"b":1}'])
  assert.match(latin1(socket.out[socket.out.length - 1] as Uint8Array), 'Connection: close\r\n')
  assert.is(socket.ended, true)
  await stop()
})

test('HttpConnection :: requests split at every byte are answered as when whole', async () => {
  const { socket, client, stop } = start()
  const raw = enc(GET('/a') + 'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc' + GET('/b'))
  for (let i = 0; i < raw.length; i++) client.receiver.receive(raw.subarray(i, i + 1))
  await settled()
  assert.equal(answers(socket), ['200 a', '200 abc', '200 {"b":1}'])
  await stop()
})

test('HttpConnection :: 100 Continue for a pipelined request leaves after the answers before it', async () => {
  const { socket, client, stop } = start()
  client.receiver.receive(enc(GET('/a') + 'POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n'))
  await settled()
  assert.equal(answers(socket), ['200 a', '100 '])
  client.receiver.receive(enc('abc'))
  await settled()
  assert.equal(answers(socket), ['200 a', '100 ', '200 abc'])
  await stop()
})

test('HttpConnection :: a JSON body that cannot be encoded goes out as 500 and is reported once per answer', async () => {
  const { socket, client, entries, stop } = start()
  client.receiver.receive(enc(GET('/cyclic') + GET('/a') + GET('/cyclic')))
  assert.equal(answers(socket), ['500 {"error":"unserializable_body"}', '200 a', '500 {"error":"unserializable_body"}'])
  const reports = entries.filter((e) => e.level === 'error' && e.message.includes('is not JSON'))
  assert.is(reports.length, 2)
  await stop()
})

// A guard before a route that reads its body whole: what the middleware saw, whether the body was read.
const guarded = () => {
  const seen = { middleware: [] as number[], handled: 0 }
  const engine = createEngine(
    {
      routes: [httpRoute('POST', '/echo', (req) => (seen.handled++, response(req.rawBody))), httpRoute('GET', '/a', () => text('a'))],
      httpMiddleware: [
        (req, next) => {
          seen.middleware.push(req.body.length)
          return req.headers.some(([name]) => name === 'Authorization') ? next() : json({ error: 'Unauthorized' }, 401)
        },
      ],
      logger: makeLogger(() => undefined),
    },
    memoryPlatform<MemorySocket>(),
  )
  return { seen, ...acceptMemorySocket(engine) }
}

test('HttpConnection :: middleware runs on the head: it sees no body whether the body came with the head or after it; the handler gets it whole', async () => {
  const { socket, client, seen, stop } = guarded()
  const post = 'POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: y\r\nContent-Length: 3\r\n\r\nabc'
  client.receiver.receive(enc(post))
  await settled()
  const raw = enc(post + GET('/a', 'Authorization: y\r\n'))
  for (let i = 0; i < raw.length; i++) client.receiver.receive(raw.subarray(i, i + 1))
  await settled()
  assert.equal(answers(socket), ['200 abc', '200 abc', '200 a'])
  assert.equal(seen.middleware, [0, 0, 0])
  assert.is(socket.ended, false)
  await stop()
})

test('HttpConnection :: refused under Expect: 100-continue: 401 with Connection: close, no 100, the body never read, the connection ended', async () => {
  const { socket, client, seen, stop } = guarded()
  client.receiver.receive(enc('POST /echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n'))
  await settled()
  assert.equal(answers(socket), ['401 {"error":"Unauthorized"}'])
  assert.match(latin1(socket.out[0] as Uint8Array), 'Connection: close\r\n')
  assert.is(socket.ended, true)
  // What comes after is neither body nor requests.
  client.receiver.receive(enc('abc' + GET('/a', 'Authorization: y\r\n')))
  await settled()
  assert.is(answers(socket).length, 1)
  assert.is(seen.handled, 0)
  await stop()
})

test('HttpConnection :: accepted under Expect: 100-continue: 100 once the middleware let it through, then the answer; chunked alike', async () => {
  const { socket, client, stop } = guarded()
  client.receiver.receive(enc('POST /echo HTTP/1.1\r\nHost: x\r\nAuthorization: y\r\nExpect: 100-continue\r\nTransfer-Encoding: chunked\r\n\r\n'))
  await settled()
  assert.equal(answers(socket), ['100 '])
  client.receiver.receive(enc('2\r\nab\r\n'))
  client.receiver.receive(enc('1\r\nc\r\n0\r\n\r\n'))
  await settled()
  assert.equal(answers(socket), ['100 ', '200 abc'])
  assert.is(socket.ended, false)
  await stop()
})

test('HttpConnection :: a refused body that had all arrived is dropped and the requests behind it answered; with no route, the body is not read either', async () => {
  const { socket, client, stop } = guarded()
  client.receiver.receive(enc('POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n'))
  client.receiver.receive(enc('abc' + GET('/a', 'Authorization: y\r\n')))
  await settled()
  assert.equal(answers(socket), ['401 {"error":"Unauthorized"}', '200 a'])
  assert.is(socket.ended, false)
  client.receiver.receive(enc('POST /nowhere HTTP/1.1\r\nHost: x\r\nAuthorization: y\r\nContent-Length: 3\r\n\r\n'))
  await settled()
  assert.equal(answers(socket).slice(2), ['404 {"error":"not_found"}'])
  assert.is(socket.ended, true)
  await stop()
})

test.run()

/**
 * The engine's HTTP connection on random pipelined traffic (portable: Node, Bun and Deno):
 * whatever the mix of answer sizes and however the bytes are split, the answers leave in
 * request order with the bytes each request earns alone, and no byte written earlier is
 * changed by a later answer (answers are joined in a shared output pool whose regions the
 * socket keeps: the platform here keeps the very arrays written, not copies).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import fc from 'fast-check'
import { response, text } from '../../../lib/core/http/response.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import type { Platform } from '../../../lib/engine/platform.js'
import { acceptMemorySocket, memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const latin1 = (bytes: Uint8Array): string => Array.from(bytes, (b) => String.fromCharCode(b)).join('')
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

// Keeps the arrays the engine writes as they are, so a later overwrite would show.
const keeping = (): Platform<MemorySocket> => {
  const base = memoryPlatform<MemorySocket>()
  return { ...base, io: { ...base.io, write: (s, bytes) => void s.out.push(bytes) } }
}

const HELLO = text('hello')

const start = () => {
  const engine = createEngine(
    {
      routes: [
        httpRoute('GET', '/hello', () => HELLO),
        httpRoute('GET', '/n/{n}', (req) => text('x'.repeat(Number(req.params.n)))),
        httpRoute('POST', '/echo', (req) => response(req.rawBody)),
      ],
      // No CORS grant: a constant response is then the same value, and the same bytes, each time.
      cors: false,
    },
    keeping(),
  )
  return acceptMemorySocket(engine)
}

// A body as the specs compare it: short ones as they are, long ones by length and ends.
const shown = (body: string): string => (body.length <= 60 ? body : `${body.length} B: ${body.slice(0, 8)}…${body.slice(-8)}`)

// The bodies of the responses written, in order, with their status codes.
const answers = (socket: MemorySocket): string[] =>
  latin1(Uint8Array.from(socket.out.flatMap((b) => Array.from(b))))
    .split(/(?=HTTP\/1\.1 )/)
    .map((r) => `${r.slice(9, 12)} ${shown(r.slice(r.indexOf('\r\n\r\n') + 4))}`)

// A request and the answer it earns alone.
const request = fc.oneof(
  fc.constant(['GET /hello HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n\r\n', '200 hello']),
  fc.integer({ min: 0, max: 20_000 }).map((n) => [`GET /n/${n} HTTP/1.1\r\nHost: a\r\n\r\n`, `200 ${shown('x'.repeat(n))}`]),
  fc.stringMatching(/^[a-z]{0,40}$/).map((b) => [`POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: ${b.length}\r\n\r\n${b}`, `200 ${b}`]),
  fc.constant(['GET /nope HTTP/1.1\r\nHost: a\r\n\r\n', '404 {"error":"not_found"}']),
)

test('HttpConnection :: pipelined answers of any size leave in order, as each request earns them alone, whatever the split (random)', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 40 }), fc.array(fc.integer({ min: 1, max: 4000 }), { maxLength: 8 }), async (reqs, cuts) => {
      const { socket, client, stop } = start()
      const raw = enc(reqs.map(([r]) => r).join(''))
      let at = 0
      for (const cut of cuts) {
        client.receiver.receive(raw.slice(at, Math.min(raw.length, at + cut)))
        at = Math.min(raw.length, at + cut)
      }
      if (at < raw.length) client.receiver.receive(raw.slice(at))
      // A body that came after its head is read as it streams in (middleware runs on the head
      // first), so its answer leaves a turn later: let the turns pass, a bounded number of them.
      for (let turn = 0; turn < 50 && (socket.out.length === 0 || answers(socket).length < reqs.length); turn++) await new Promise((resolve) => setTimeout(resolve, 0))
      assert.equal(answers(socket), reqs.map(([, a]) => a))
      await stop()
    }),
    { numRuns: 40 },
  )
})

test('HttpConnection :: bytes already written stay as written while the output pool fills and is replaced', async () => {
  const { socket, client, stop } = start()
  const chunk = enc('GET /hello HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(7) + 'GET /n/700 HTTP/1.1\r\nHost: a\r\n\r\n')
  const expected: string[] = []
  for (let i = 0; i < 400; i++) {
    client.receiver.receive(chunk.slice())
    expected.push(...Array.from({ length: 7 }, () => '200 hello'), `200 ${shown('x'.repeat(700))}`)
  }
  // 400 chunks of ~1.5 KiB of answers, several pools' worth: one write per chunk, and one
  // more where a chunk's answers did not fit in what was left of a pool.
  const written = socket.out.reduce((n, b) => n + b.length, 0)
  assert.ok(socket.out.length >= 400 && socket.out.length <= 400 + Math.ceil(written / 65536), String(socket.out.length))
  assert.equal(answers(socket), expected)
  await stop()
})

test('HttpConnection :: a constant answer owed several times in one write is joined once; the join is written again for as many', async () => {
  const { socket, client, stop } = start()
  const hello = 'GET /hello HTTP/1.1\r\nHost: a\r\n\r\n'
  client.receiver.receive(enc(hello.repeat(10)))
  client.receiver.receive(enc(hello.repeat(10)))
  client.receiver.receive(enc(hello.repeat(3)))
  client.receiver.receive(enc(hello.repeat(10)))
  assert.is(socket.out.length, 4, String(socket.out.map((o) => o.length)))
  const [a, b, c, d] = socket.out
  // The same bytes within a second (the Date): the same array each time, but for 3 copies.
  const info = JSON.stringify([a === b, b === d, c === b, latin1(a as Uint8Array) === latin1(d as Uint8Array), a?.byteOffset, b?.byteOffset, c?.byteOffset, d?.byteOffset])
  if (latin1(a as Uint8Array) === latin1(d as Uint8Array)) assert.ok(a === b || b === d, info)
  assert.ok(c !== b, info)
  assert.equal(answers(socket), Array.from({ length: 33 }, () => '200 hello'))
  await stop()
})

test('HttpConnection :: answers beyond the join limit leave in several writes, each uncopied when alone', async () => {
  const { socket, client, stop } = start()
  client.receiver.receive(enc('GET /n/20000 HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(3) + 'GET /hello HTTP/1.1\r\nHost: a\r\n\r\n'.repeat(2)))
  assert.equal(answers(socket), [...Array.from({ length: 3 }, () => `200 ${shown('x'.repeat(20000))}`), '200 hello', '200 hello'])
  assert.is(socket.out.length, 4)
  await stop()
})

test.run()

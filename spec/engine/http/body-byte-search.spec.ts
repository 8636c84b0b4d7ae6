/**
 * `Platform.byteSearch` reaches a streamed body: the engine lends the platform's search to each
 * `RequestBody` (`req.body.byteSearch`), `readMultipart` finds the delimiters with it, and the
 * upload reads back byte for byte with the body cut into reads of several sizes; a platform
 * that lends none leaves `byteSearch` undefined (the core's own search). On the in-memory
 * platform, with a portable counting search. Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { ByteSearch } from '../../../lib/core/byte-search.js'
import { readMultipart } from '../../../lib/core/http/multipart/read-multipart.js'
import { json } from '../../../lib/core/http/response.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import { acceptMemorySocket, memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const latin1 = (chunks: readonly Uint8Array[]): string => chunks.map((c) => Array.from(c, (b) => String.fromCharCode(b)).join('')).join('')
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

const BOUNDARY = 'bound-7Qx'
const FILE_BYTES = 100_000

const upload = (): Uint8Array => {
  const before = enc(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\n\r\n`)
  const after = enc(`\r\n--${BOUNDARY}--\r\n`)
  const body = new Uint8Array(before.length + FILE_BYTES + after.length)
  body.set(before, 0)
  // Byte i is i mod 251, with line ends and dashes among them.
  for (let i = 0; i < FILE_BYTES; i++) body[before.length + i] = i % 251
  body.set(after, before.length + FILE_BYTES)
  const head = enc(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`)
  const out = new Uint8Array(head.length + body.length)
  out.set(head, 0)
  out.set(body, head.length)
  return out
}

const naive: ByteSearch = (hay, needle, from) => {
  for (let i = Math.max(0, from); i <= hay.length - needle.length; i++) {
    let j = 0
    while (j < needle.length && hay[i + j] === needle[j]) j++
    if (j === needle.length) return i
  }
  return -1
}

const serve = async (byteSearch: ByteSearch | undefined, piece: number) => {
  let calls = 0
  const counted: ByteSearch | undefined = byteSearch === undefined ? undefined : (hay, needle, from) => (calls++, byteSearch(hay, needle, from))
  const seen = { lent: false, size: 0, ok: true }
  const platform = { ...memoryPlatform<MemorySocket>(), ...(counted === undefined ? {} : { byteSearch: counted }) }
  const engine = createEngine(
    {
      routes: [
        httpRoute('POST', '/up', { body: 'stream', maxBody: 2 * FILE_BYTES }, async (req) => {
          seen.lent = req.body.byteSearch !== undefined
          for await (const part of readMultipart(req)) {
            if (part.kind !== 'file') continue
            for await (const chunk of part.data) {
              for (let i = 0; i < chunk.length; i++) if (chunk[i] !== (seen.size + i) % 251) seen.ok = false
              seen.size += chunk.length
            }
          }
          return json({ ok: true })
        }),
      ],
    },
    platform,
  )
  const { socket, client, stop } = acceptMemorySocket(engine)
  try {
    const bytes = upload()
    let fed = 0
    for (let i = 0; i < 100_000 && socket.out.length === 0; i++) {
      if (fed < bytes.length && !socket.paused) {
        client.receiver.receive(bytes.subarray(fed, fed + piece))
        fed += Math.min(piece, bytes.length - fed)
      } else await turn()
    }
    return { ...seen, calls, answer: latin1(socket.out).slice(0, 12) }
  } finally {
    await stop()
  }
}

for (const piece of [65536, 1000, 7]) {
  test(`streamed body :: the platform's byteSearch is lent to req.body and finds the delimiters (reads of ${piece})`, async () => {
    const got = await serve(naive, piece)
    assert.is(got.answer, 'HTTP/1.1 200')
    assert.ok(got.lent, 'req.body.byteSearch is the platform\'s')
    assert.ok(got.calls > 0, 'readMultipart asked it')
    assert.is(got.size, FILE_BYTES)
    assert.ok(got.ok, 'the file reads back byte for byte')
  })
}

test('streamed body :: no byteSearch on the platform, none on req.body (the core\'s own search)', async () => {
  const got = await serve(undefined, 65536)
  assert.is(got.answer, 'HTTP/1.1 200')
  assert.not.ok(got.lent)
  assert.is(got.size, FILE_BYTES)
  assert.ok(got.ok)
})

test.run()

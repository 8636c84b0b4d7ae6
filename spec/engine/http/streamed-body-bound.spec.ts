/**
 * How much of a streamed upload the engine holds ahead of its handler, counted in bytes on the
 * in-memory platform, the socket read as a runtime reads it (a piece at a time, none while
 * the engine has reading paused): at most `HIGH_WATER` plus the piece that reached it, whether
 * the handler has not started reading, or reads a multipart file slowly through
 * `readMultipart`. Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { readMultipart } from '../../../lib/core/http/multipart/read-multipart.js'
import { json } from '../../../lib/core/http/response.js'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import { HIGH_WATER } from '../../../lib/engine/http/request-body.js'
import { acceptMemorySocket, memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
const latin1 = (chunks: readonly Uint8Array[]): string => chunks.map((c) => Array.from(c, (b) => String.fromCharCode(b)).join('')).join('')
const turn = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

const BOUNDARY = 'bound-7Qx'
const FILE_BYTES = 384 * 1024

// A form with one field and one file of FILE_BYTES (byte i is i mod 251), framed by Content-Length.
const upload = (): { head: Uint8Array; body: Uint8Array } => {
  const before = enc(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="note"\r\n\r\nhi\r\n--${BOUNDARY}\r\nContent-Disposition: form-data; name="f"; filename="a.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`)
  const after = enc(`\r\n--${BOUNDARY}--\r\n`)
  const body = new Uint8Array(before.length + FILE_BYTES + after.length)
  body.set(before, 0)
  for (let i = 0; i < FILE_BYTES; i++) body[before.length + i] = i % 251
  body.set(after, before.length + FILE_BYTES)
  const head = enc(`POST /up HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`)
  return { head, body }
}

// A server whose handler waits for `open`, then reads the form, taking one turn per file chunk
// (a slow disk), and counts the bytes it took from `req.body`.
const start = () => {
  let open = (): void => undefined
  const gate = new Promise<void>((resolve) => (open = resolve))
  const seen = { taken: 0, fileBytes: 0, fileOk: true, note: '' }
  const engine = createEngine(
    {
      routes: [
        httpRoute('POST', '/up', { body: 'stream', maxBody: 2 * FILE_BYTES }, async (req) => {
          await gate
          const counted = async function* (): AsyncGenerator<Uint8Array> {
            for await (const piece of req.body) {
              seen.taken += piece.length
              yield piece
            }
          }
          for await (const part of readMultipart({ headerMap: req.headerMap, body: counted() })) {
            if (part.kind === 'field') seen.note = part.value
            else
              for await (const chunk of part.data) {
                for (let i = 0; i < chunk.length; i++) if (chunk[i] !== (seen.fileBytes + i) % 251) seen.fileOk = false
                seen.fileBytes += chunk.length
                await turn()
              }
          }
          return json({ ok: true })
        }),
      ],
    },
    memoryPlatform<MemorySocket>(),
  )
  return { open, seen, ...acceptMemorySocket(engine) }
}

for (const piece of [64 * 1024, 1000]) {
  test(`streamed body :: at most HIGH_WATER plus one ${piece}-byte read held ahead of a handler that does not read, then of one that reads slowly`, async () => {
    const { socket, client, open, seen, stop } = start()
    try {
      const { head, body } = upload()
      client.receiver.receive(head)
      let fed = 0
      // The handler has not begun reading: the socket is read until the engine pauses it.
      while (!socket.paused && fed < body.length) {
        client.receiver.receive(body.subarray(fed, fed + piece))
        fed += Math.min(piece, body.length - fed)
      }
      assert.ok(socket.paused, 'reading paused')
      assert.ok(fed <= HIGH_WATER + piece, `held ${fed} bytes unread (HIGH_WATER ${HIGH_WATER})`)
      assert.ok(fed >= HIGH_WATER, 'not paused before HIGH_WATER')
      assert.ok(HIGH_WATER <= 64 * 1024, 'one 64 KiB read queued at most before pausing')
      // Now it reads slowly: a piece comes in whenever reading is not paused.
      open()
      let most = 0
      while (fed < body.length) {
        if (socket.paused) await turn()
        else {
          client.receiver.receive(body.subarray(fed, fed + piece))
          fed += Math.min(piece, body.length - fed)
        }
        most = Math.max(most, fed - seen.taken)
      }
      for (let i = 0; i < 1000 && socket.out.length === 0; i++) await turn()
      assert.ok(most <= HIGH_WATER + piece, `at most ${most} bytes held ahead of the handler`)
      assert.is(seen.taken, body.length)
      assert.is(seen.note, 'hi')
      assert.is(seen.fileBytes, FILE_BYTES)
      assert.ok(seen.fileOk, 'the file read back byte for byte')
      assert.is(latin1(socket.out).slice(0, 12), 'HTTP/1.1 200')
    } finally {
      await stop()
    }
  })
}

test.run()

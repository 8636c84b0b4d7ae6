/**
 * The memory floor of the streaming bench's uploads (`bench/streaming/memory-probe.ts raw-net`):
 * raw `node:net` answering any `POST` with a `Content-Length` by reading the body to its end and
 * throwing every byte away (no multipart, no hash, no file), then `200 {}` and close. What its RSS
 * grows by under 64 concurrent uploads is what `node:net`'s reads alone cost, whatever a server
 * does with the bytes.
 *
 * `UPLOAD_READS` picks how the socket reads:
 * - `fresh` (default): the ordinary `'data'` events, a fresh buffer per read (as every server on
 *   `net.Socket`, twinport and fastify included, reads today);
 * - `onread`: one 64 KiB buffer per connection, reused for every read (`onread`). A server
 *   socket cannot ask for it with a documented API (Node 20: `net.createServer` has no `onread`
 *   option, and `new net.Socket({ onread })` takes no accepted connection), so this re-wraps the
 *   accepted socket's handle (`pauseOnConnect`, then `new Socket({ handle, onread })`): internal,
 *   bench only, to measure what the documented API would save.
 *
 * HOST/PORT from the environment. Node only; imports nothing of twinport.
 */
import { createServer, Socket } from 'node:net'
import { gcOnSignal } from './gc-on-signal.js'

gcOnSignal()

const mode = process.env['UPLOAD_READS'] === 'onread' ? 'onread' : 'fresh'
const OK = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 2\r\nconnection: close\r\n\r\n{}')
const HEAD_END = Buffer.from('\r\n\r\n')
const MAX_HEAD = 16384

// The request's state on one connection: its head so far (copied: small), then the body bytes left.
const reader = (socket: Socket): ((bytes: Uint8Array) => void) => {
  let head: Buffer = Buffer.alloc(0)
  let left = -1
  return (bytes) => {
    let body = bytes
    if (left < 0) {
      head = Buffer.concat([head, bytes])
      const end = head.indexOf(HEAD_END)
      if (end < 0) {
        if (head.length > MAX_HEAD) socket.destroy()
        return
      }
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(head.subarray(0, end).toString('latin1'))?.[1]
      left = Number(length ?? 0)
      body = head.subarray(end + 4)
      head = Buffer.alloc(0)
    }
    left -= body.length
    if (left <= 0) {
      left = Number.POSITIVE_INFINITY
      socket.end(OK)
    }
  }
}

interface Wrappable {
  readonly _handle: unknown
}

const server = createServer({ noDelay: true, allowHalfOpen: true, pauseOnConnect: mode === 'onread' }, (accepted) => {
  if (mode === 'fresh') {
    const feed = reader(accepted)
    accepted.on('data', feed)
    accepted.on('end', () => accepted.end())
    accepted.on('error', () => accepted.destroy())
    return
  }
  const buffer = Buffer.allocUnsafe(65536)
  // Internal: `handle` is not a documented option (see the header).
  const options = {
    handle: (accepted as unknown as Wrappable)._handle,
    allowHalfOpen: true,
    onread: { buffer, callback: (n: number): void => feed(buffer.subarray(0, n)) },
  }
  const socket = new Socket(options as ConstructorParameters<typeof Socket>[0])
  const feed = reader(socket)
  socket.on('end', () => socket.end())
  socket.on('error', () => socket.destroy())
  socket.resume()
})

server.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`raw node:net upload sink (${mode} reads) listening on ${JSON.stringify(server.address())}`)
})

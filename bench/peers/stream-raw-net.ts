/**
 * The ceiling of the streaming bench's download (`bench/streaming.ts`): `node:net` writing
 * `GET /stream?chunks=N&size=S` as chunked HTTP/1.1 with the least work a socket allows. The
 * framed chunk (size line, S bytes of 0x61, CRLF) is built once per request and written N
 * times, each write waiting for `drain` when the socket's buffer is full, then `0\r\n\r\n`
 * and the socket is ended. One request per connection; no other route, no validation.
 * HOST/PORT from the environment.
 */
import { createServer, type Socket } from 'node:net'
import { streamAsk } from './stream-query.js'
import { gcOnSignal } from './gc-on-signal.js'

gcOnSignal()

const HEAD = Buffer.from('HTTP/1.1 200 OK\r\ncontent-type: application/octet-stream\r\ntransfer-encoding: chunked\r\nconnection: close\r\n\r\n')
const LAST = Buffer.from('0\r\n\r\n')
const NOT_FOUND = Buffer.from('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')

// Resolves on 'drain' or 'close', whichever comes first, and leaves no listener behind.
const drained = (out: Socket): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done)
      out.off('close', done)
      resolve()
    }
    out.on('drain', done)
    out.on('close', done)
  })

const send = async (socket: Socket, chunks: number, size: number): Promise<void> => {
  const framed = Buffer.alloc(size.toString(16).length + 2 + size + 2, 0x61)
  const line = `${size.toString(16)}\r\n`
  framed.write(line, 0, 'latin1')
  framed.write('\r\n', framed.length - 2, 'latin1')
  socket.write(HEAD)
  for (let i = 0; i < chunks && !socket.destroyed; i++) {
    if (!socket.write(framed)) await drained(socket)
  }
  socket.end(LAST)
}

const server = createServer({ noDelay: true }, (socket) => {
  let head = ''
  const onData = (chunk: Buffer): void => {
    head += chunk.toString('latin1')
    const end = head.indexOf('\r\n\r\n')
    if (end < 0) return
    socket.off('data', onData)
    const ask = streamAsk(/^GET (\S+) HTTP\/1\.[01]\r\n/.exec(head)?.[1] ?? '')
    if (ask === undefined) socket.end(NOT_FOUND)
    else void send(socket, ask.chunks, ask.size)
  }
  socket.on('data', onData)
  socket.on('error', () => socket.destroy())
})

server.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`raw node:net stream listening on ${JSON.stringify(server.address())}`)
})

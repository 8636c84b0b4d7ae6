/**
 * The ceiling: a `node:net` server that parses nothing and answers every request
 * head (each CRLF CRLF it sees) with the same canned `{"hello":"world"}`
 * response, pipelined answers in one write. No JavaScript HTTP server can beat
 * it on this stack. HTTP only, GET without a body only. HOST/PORT from the
 * environment.
 */
import { createServer } from 'node:net'

const RESPONSE = Buffer.from(
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"hello":"world"}',
)
// Pre-built batches for up to 32 pipelined requests, so a batch is one write.
const BATCHES = Array.from({ length: 33 }, (_, n) => Buffer.concat(Array.from({ length: n }, () => RESPONSE)))
const CR = 13
const LF = 10

const server = createServer({ noDelay: true }, (socket) => {
  // How many bytes of "\r\n\r\n" the previous chunk ended with.
  let matched = 0
  socket.on('data', (chunk: Buffer) => {
    let heads = 0
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i]
      if (b === (matched % 2 === 0 ? CR : LF)) {
        matched++
        if (matched === 4) {
          heads++
          matched = 0
        }
      } else matched = b === CR ? 1 : 0
    }
    for (; heads > 32; heads -= 32) socket.write(BATCHES[32]!)
    if (heads > 0) socket.write(BATCHES[heads]!)
  })
  socket.on('error', () => socket.destroy())
})

server.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`raw node:net listening on ${JSON.stringify(server.address())}`)
})

/**
 * The ceiling: a `node:net` server that does the least work a socket allows, to show
 * what no JavaScript server on this stack can beat.
 *
 * - HTTP: parses nothing and answers every request head (each CRLF CRLF it sees) with
 *   the same canned `{"hello":"world"}` response, pipelined answers in one write.
 * - WebSocket: an upgrade request (a head starting `GET ` that names `websocket`) gets
 *   a 101 with the accept key; after it, every complete masked data frame is echoed
 *   unmasked, one write per chunk read, and on `/bcast` the frame goes to every socket
 *   of the room in a plain loop. No validation, no limits, no close handshake: a
 *   yardstick, not a server.
 *
 * HOST/PORT from the environment.
 */
import { createHash } from 'node:crypto'
import { createServer, type Socket } from 'node:net'

const RESPONSE = Buffer.from(
  'HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 17\r\n\r\n{"hello":"world"}',
)
// Pre-built batches for up to 32 pipelined requests, so a batch is one write.
const BATCHES = Array.from({ length: 33 }, (_, n) => Buffer.concat(Array.from({ length: n }, () => RESPONSE)))
const CR = 13
const LF = 10
const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'

const room = new Set<Socket>()

// How many bytes of "\r\n\r\n" the previous chunk ended with, per socket (HTTP only).
const matchedOf = new WeakMap<Socket, number>()
// Bytes of an incomplete frame carried to the next chunk (WebSocket only).
const pendingOf = new WeakMap<Socket, Buffer>()

const countHeads = (socket: Socket, chunk: Buffer): number => {
  let matched = matchedOf.get(socket) ?? 0
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
  matchedOf.set(socket, matched)
  return heads
}

// The upgrade: answer 101 and switch the socket to frames.
const upgrade = (socket: Socket, head: string): void => {
  const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? ''
  const accept = createHash('sha1').update(key + GUID).digest('base64')
  socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
  socket.on('data', head.startsWith('GET /bcast ') ? onBroadcast : onEcho)
  if (head.startsWith('GET /bcast ')) {
    room.add(socket)
    socket.once('close', () => room.delete(socket))
  }
}

// Only a connection's first chunk is looked at for an upgrade, so HTTP pays nothing for it.
function onFirst(this: Socket, chunk: Buffer): void {
  if (chunk[0] === 0x47 /* G */ && chunk.length < 4096) {
    const head = chunk.toString('latin1')
    if (/upgrade:\s*websocket/i.test(head)) return upgrade(this, head)
  }
  this.on('data', onHttp)
  onHttp.call(this, chunk)
}

function onHttp(this: Socket, chunk: Buffer): void {
  let heads = countHeads(this, chunk)
  for (; heads > 32; heads -= 32) this.write(BATCHES[32]!)
  if (heads > 0) this.write(BATCHES[heads]!)
}

/** The unmasked server frames for the complete masked frames in `bytes`, and what is left. */
const unmaskFrames = (bytes: Buffer): { readonly out: Buffer[]; readonly rest: number } => {
  const out: Buffer[] = []
  let at = 0
  while (bytes.length - at >= 6) {
    const b0 = bytes[at]!
    let len = bytes[at + 1]! & 0x7f
    let head = 2
    if (len === 126) {
      len = bytes.readUInt16BE(at + 2)
      head = 4
    } else if (len === 127) {
      len = Number(bytes.readBigUInt64BE(at + 2))
      head = 10
    }
    if (bytes.length - at < head + 4 + len) break
    const key = at + head
    const frame = Buffer.allocUnsafe(head + len)
    frame[0] = b0
    frame[1] = head === 2 ? len : head === 4 ? 126 : 127
    if (head > 2) bytes.copy(frame, 2, at + 2, at + head)
    for (let i = 0; i < len; i++) frame[head + i] = bytes[key + 4 + i]! ^ bytes[key + (i & 3)]!
    if ((b0 & 0x0f) < 0x8) out.push(frame)
    at = key + 4 + len
  }
  return { out, rest: at }
}

const framesIn = (socket: Socket, chunk: Buffer): Buffer[] => {
  const pending = pendingOf.get(socket)
  const bytes = pending === undefined ? chunk : Buffer.concat([pending, chunk])
  const { out, rest } = unmaskFrames(bytes)
  if (rest < bytes.length) pendingOf.set(socket, Buffer.from(bytes.subarray(rest)))
  else if (pending !== undefined) pendingOf.delete(socket)
  return out
}

function onEcho(this: Socket, chunk: Buffer): void {
  const out = framesIn(this, chunk)
  if (out.length === 1) this.write(out[0]!)
  else if (out.length > 1) this.write(Buffer.concat(out))
}

function onBroadcast(this: Socket, chunk: Buffer): void {
  for (const frame of framesIn(this, chunk)) for (const peer of room) peer.write(frame)
}

const server = createServer({ noDelay: true }, (socket) => {
  socket.once('data', onFirst)
  socket.on('error', () => socket.destroy())
})

server.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`raw node:net listening on ${JSON.stringify(server.address())}`)
})

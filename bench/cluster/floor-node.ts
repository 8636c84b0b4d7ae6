/**
 * Bench floor: the least a Node process can do to relay the `/bcast` room through Redis, to
 * show how much of a broadcast's cost is the operating system's and not a framework's. A bare
 * `node:net` server: the WebSocket handshake, one unmasked frame built per message, the frame
 * PUBLISHed to one Redis channel with this node's 8-byte id in front, and the same bytes
 * written with one `socket.write` to every local client (the sender included); frames from
 * other nodes are written as they come. No limits, no errors handled, no protocol checks:
 * not a server anyone should run, only the bottom line. ADAPTER and PREFIX as the others.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createServer, type Socket } from 'node:net'
import { createClient } from 'redis'

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11'
const me = randomBytes(8)
const channel = `${process.env.PREFIX ?? 'bench-floor'}:bcast`
const sockets = new Set<Socket>()
const pub = process.env.ADAPTER === 'redis' ? createClient({ url: process.env.REDIS_URL }) : undefined
const sub = pub?.duplicate()

const fanOut = (frame: Buffer): void => {
  for (const socket of sockets) socket.write(frame)
}

if (pub !== undefined && sub !== undefined) {
  await Promise.all([pub.connect(), sub.connect()])
  await sub.subscribe(
    channel,
    (message: Buffer) => {
      if (!message.subarray(0, 8).equals(me)) fanOut(message.subarray(8))
    },
    true,
  )
}

// RFC 6455 §5.2: a client frame is masked; the bench sends one short text frame at a time.
const onFrames = (data: Buffer): void => {
  let at = 0
  while (data.length - at >= 6) {
    const length = (data[at + 1] as number) & 0x7f
    if (length > 125 || data.length - at < 6 + length) break
    const mask = data.subarray(at + 2, at + 6)
    const message = Buffer.allocUnsafe(10 + length)
    me.copy(message, 0)
    message[8] = data[at] as number
    message[9] = length
    for (let i = 0; i < length; i++) message[10 + i] = (data[at + 6 + i] as number) ^ (mask[i & 3] as number)
    void pub?.publish(channel, message)
    fanOut(message.subarray(8))
    at += 6 + length
  }
}

const server = createServer((socket) => {
  socket.setNoDelay(true)
  let head = ''
  socket.on('data', function upgrade(chunk: Buffer) {
    head += chunk.toString('latin1')
    const end = head.indexOf('\r\n\r\n')
    if (end < 0) return
    const key = /sec-websocket-key:\s*(\S+)/i.exec(head)?.[1] ?? ''
    const accept = createHash('sha1').update(key + GUID).digest('base64')
    socket.write(`HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`)
    socket.off('data', upgrade)
    sockets.add(socket)
    socket.on('data', onFrames)
  })
  socket.on('close', () => sockets.delete(socket))
  socket.on('error', () => undefined)
})
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  const address = server.address()
  console.log(`floor listening on ${typeof address === 'object' && address !== null ? address.port : 0} (${process.env.ADAPTER ?? 'local'})`)
})
// Stopped with SIGTERM (bench/cluster.ts --profile): exit, so a CPU profile is written.
process.on('SIGTERM', () => process.exit(0))

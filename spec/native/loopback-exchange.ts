/**
 * `loopbackExchange(port)`: a run of real clients against a server on the native transport,
 * shaped to reach every path of native/twinport.c: many reads per slab and bodies kept across
 * slabs (a 1 MiB POST), pipelined requests in one write, WebSocket echo small and large (a
 * 4 MiB message leaves through the addon's queue and its drain), a client that stops reading
 * while 8 MiB are echoed to it (backpressure, pause of the peer), a request followed by the
 * client's FIN (half-close), and a client reset. Throws on the first wrong byte. Used in
 * process by native-transport.spec.ts and, under AddressSanitizer, by asan-child.ts.
 */
import { randomBytes } from 'node:crypto'
import { connect, type Socket } from 'node:net'
import WebSocket from 'ws'

const fail = (what: string): never => {
  throw new Error(`loopback exchange: ${what}`)
}

// Reads from a raw socket until `done(text)` holds; answers what was read.
const readUntil = (socket: Socket, done: (all: Buffer) => boolean): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    let all = Buffer.alloc(0)
    const timer = setTimeout(() => reject(new Error('loopback exchange: no full answer within 10 s')), 10_000)
    const onData = (chunk: Buffer): void => {
      all = Buffer.concat([all, chunk])
      if (!done(all)) return
      clearTimeout(timer)
      socket.off('data', onData)
      resolve(all)
    }
    socket.on('data', onData)
    socket.once('error', reject)
  })

const rawSocket = (port: number): Promise<Socket> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket))
    socket.once('error', reject)
  })

const count = (text: string, part: string): number => text.split(part).length - 1

const openWs = (port: number): Promise<WebSocket> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/echo`, { maxPayload: 64 * 1024 * 1024 })
    ws.once('open', () => resolve(ws))
    ws.once('error', reject)
  })

const nextMessages = (ws: WebSocket, n: number): Promise<Buffer[]> =>
  new Promise((resolve, reject) => {
    const got: Buffer[] = []
    const timer = setTimeout(() => reject(new Error(`loopback exchange: ${got.length} of ${n} echoes within 20 s`)), 20_000)
    const onMessage = (data: Buffer): void => {
      got.push(data)
      if (got.length < n) return
      clearTimeout(timer)
      ws.off('message', onMessage)
      resolve(got)
    }
    ws.on('message', onMessage)
  })

/** Runs the exchange against the echo routes (examples/echo-routes.ts) served on `port`. */
export const loopbackExchange = async (port: number): Promise<void> => {
  // Keep-alive and pipelining: ten requests in one write, ten answers.
  const pipelined = await rawSocket(port)
  pipelined.write('GET /hello HTTP/1.1\r\nhost: x\r\n\r\n'.repeat(10))
  const answers = (await readUntil(pipelined, (all) => count(all.toString('latin1'), '{"hello":"world"}') === 10)).toString('latin1')
  if (count(answers, 'HTTP/1.1 200') !== 10) fail('pipelined answers')
  pipelined.destroy()

  // A 1 MiB body read across many reads and slabs, kept whole until it is echoed.
  const body = randomBytes(1024 * 1024)
  const posted = await fetch(`http://127.0.0.1:${port}/echo`, { method: 'POST', body, headers: { 'content-type': 'application/octet-stream' } })
  const echoed = Buffer.from(await posted.arrayBuffer())
  if (posted.status !== 200 || !echoed.equals(body)) fail(`POST /echo: ${posted.status}, ${echoed.length} bytes`)

  // WebSocket echo: 100 small messages in order, then 4 MiB.
  const ws = await openWs(port)
  const small = nextMessages(ws, 100)
  for (let i = 0; i < 100; i++) ws.send(`message ${i}`)
  const smallBack = await small
  smallBack.forEach((data, i) => data.toString() === `message ${i}` || fail(`echo ${i}: ${data.toString().slice(0, 40)}`))
  const large = randomBytes(4 * 1024 * 1024)
  const largeBack = nextMessages(ws, 1)
  ws.send(large)
  if (!(await largeBack)[0]?.equals(large)) fail('4 MiB echo')

  // A reader that stops: 8 × 1 MiB echoed while its socket is paused queue natively, then drain.
  const slow = await openWs(port)
  const raw = (slow as unknown as { _socket: Socket })._socket
  raw.pause()
  const parts = Array.from({ length: 8 }, () => randomBytes(1024 * 1024))
  const partsBack = nextMessages(slow, parts.length)
  for (const part of parts) slow.send(part)
  await new Promise((resolve) => setTimeout(resolve, 300))
  raw.resume()
  ;(await partsBack).forEach((data, i) => data.equals(parts[i] as Buffer) || fail(`slow reader, part ${i}`))

  // Half-close: the request, then our FIN; the answer still comes, then the server's FIN.
  const halfClosed = await rawSocket(port)
  const ended = new Promise<void>((resolve) => halfClosed.once('end', resolve))
  halfClosed.end('GET /hello HTTP/1.1\r\nhost: x\r\n\r\n')
  const half = await readUntil(halfClosed, (all) => all.includes('{"hello":"world"}'))
  if (!half.toString('latin1').startsWith('HTTP/1.1 200')) fail('half-closed request')
  await ended
  halfClosed.destroy()

  // A reset in the middle of a request.
  const reset = await rawSocket(port)
  reset.write('POST /echo HTTP/1.1\r\nhost: x\r\ncontent-length: 100000\r\n\r\nabc')
  await new Promise((resolve) => setTimeout(resolve, 50))
  reset.resetAndDestroy()

  const closed = Promise.all([ws, slow].map((socket) => new Promise((resolve) => socket.once('close', resolve))))
  ws.close()
  slow.close()
  await closed
}

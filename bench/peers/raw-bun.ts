/**
 * The ceiling on Bun: a `Bun.listen` server doing the least work a socket allows (the
 * work itself is in `raw-wire.ts`): a canned `{"hello":"world"}` response per request
 * head, pipelined answers in one write; for WebSocket a 101, each chunk's complete masked
 * frames echoed unmasked in one write, and on `/bcast` a plain loop over the room. What
 * the kernel does not take at once waits for `drain`, as Bun's TCP API asks. Run by Bun;
 * HOST/PORT from the environment.
 */
import { BATCHES, countHeads, echoFrames, switchingProtocols, upgradeHead, type FrameState, type HeadState } from './raw-wire.js'

interface Conn extends HeadState, FrameState {
  mode: 'first' | 'http' | 'echo' | 'bcast'
  backlog: Uint8Array[]
}

interface RawSocket {
  data: Conn
  write(bytes: Uint8Array): number
  setNoDelay(enabled: boolean): boolean
}

interface BunListen {
  listen(options: {
    readonly hostname: string
    readonly port: number
    readonly socket: {
      readonly open: (socket: RawSocket) => void
      readonly data: (socket: RawSocket, chunk: Uint8Array) => void
      readonly drain: (socket: RawSocket) => void
      readonly close: (socket: RawSocket) => void
      readonly error: (socket: RawSocket, error: Error) => void
    }
  }): { readonly port: number }
}

const bun = (globalThis as { Bun?: BunListen }).Bun
if (bun === undefined) throw new Error('bench/peers/raw-bun.ts runs in Bun')

const room = new Set<RawSocket>()

const send = (socket: RawSocket, bytes: Uint8Array): void => {
  const backlog = socket.data.backlog
  if (backlog.length > 0) return void backlog.push(bytes)
  const written = socket.write(bytes)
  if (written < bytes.length) backlog.push(bytes.subarray(Math.max(0, written)))
}

const drain = (socket: RawSocket): void => {
  const backlog = socket.data.backlog
  while (backlog.length > 0) {
    const head = backlog[0]!
    const written = Math.max(0, socket.write(head))
    if (written < head.length) {
      backlog[0] = head.subarray(written)
      return
    }
    backlog.shift()
  }
}

const onHttp = (socket: RawSocket, chunk: Uint8Array): void => {
  let heads = countHeads(socket.data, chunk)
  for (; heads > 32; heads -= 32) send(socket, BATCHES[32]!)
  if (heads > 0) send(socket, BATCHES[heads]!)
}

const listener = bun.listen({
  hostname: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  socket: {
    open(socket) {
      socket.data = { mode: 'first', matched: 0, pending: undefined, backlog: [] }
      socket.setNoDelay(true)
    },
    data(socket, chunk) {
      const conn = socket.data
      if (conn.mode === 'first') {
        const head = upgradeHead(chunk)
        if (head === undefined) conn.mode = 'http'
        else {
          send(socket, switchingProtocols(head))
          conn.mode = head.startsWith('GET /bcast ') ? 'bcast' : 'echo'
          if (conn.mode === 'bcast') room.add(socket)
          return
        }
      }
      if (conn.mode === 'http') return onHttp(socket, chunk)
      const out = echoFrames(conn, chunk)
      if (out.length === 0) return
      if (conn.mode === 'echo') send(socket, out)
      else for (const peer of room) send(peer, out)
    },
    drain,
    close: (socket) => void room.delete(socket),
    error: () => undefined,
  },
})
console.log(`raw Bun.listen listening on ${listener.port}`)

/**
 * The soak's lean clients (`bench/soak.ts`): raw `node:net` sockets that speak just enough
 * RFC 6455 (masked text frames out, frames scanned in) and HTTP/1.1 (responses counted by
 * their Content-Length) to drive thousands of connections from one process. Node only.
 */
import { connect, type Socket } from 'node:net'
import { afterUpgradeAnswer, maskedFrame, OPCODE, scanFrames } from '../load/ws-frames.js'

const KEY = new Uint8Array([0x37, 0xfa, 0x21, 0x3d])
const encoder = new TextEncoder()
const decoder = new TextDecoder()

/** An open WebSocket connection. */
export interface WsConn {
  readonly socket: Socket
  /** Sends one text message (a masked frame). */
  send(text: string): void
}

/**
 * Opens a WebSocket on 127.0.0.1:`port` at `path`; `onText` sees each text message, `onClose`
 * runs once when the socket ends for whatever reason. Resolves once the 101 came.
 */
export const openWs = (port: number, path: string, onText: (text: string) => void, onClose: () => void): Promise<WsConn> =>
  new Promise((resolve, reject) => {
    let pending: Buffer | null = null
    let open = false
    let closed = false
    const socket = connect({ host: '127.0.0.1', port, noDelay: true })
    const conn: WsConn = { socket, send: (text) => void (socket.writable && socket.write(maskedFrame(OPCODE.text, encoder.encode(text), KEY))) }
    socket.on('connect', () =>
      socket.write(
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
      ),
    )
    socket.on('data', (chunk: Buffer) => {
      let buf = pending === null ? chunk : Buffer.concat([pending, chunk])
      pending = null
      if (!open) {
        const rest = afterUpgradeAnswer(buf)
        if (rest === undefined) return void (pending = buf)
        if (rest === false) {
          socket.destroy()
          return reject(new Error(`upgrade refused on ${port}${path}`))
        }
        open = true
        resolve(conn)
        buf = rest
      }
      const scan = scanFrames(buf, (opcode, payload) => opcode === OPCODE.text && onText(decoder.decode(payload)))
      if (scan.consumed < buf.length) pending = Buffer.from(buf.subarray(scan.consumed))
      if (scan.closed) socket.destroy()
    })
    socket.on('error', (error) => {
      if (!open) reject(error)
    })
    socket.on('close', () => {
      if (!open) reject(new Error(`closed before the upgrade on ${port}`))
      if (closed) return
      closed = true
      if (open) onClose()
    })
  })

const HEAD_END = Buffer.from('\r\n\r\n')

/**
 * Counts complete HTTP/1.1 responses at the start of `buf` (each head, then Content-Length
 * bytes of body); answers how many, their status codes, and the bytes they took.
 */
export const scanResponses = (buf: Buffer): { readonly statuses: number[]; readonly consumed: number } => {
  const statuses: number[] = []
  let at = 0
  for (;;) {
    const end = buf.indexOf(HEAD_END, at)
    if (end < 0) break
    const head = buf.toString('latin1', at, end)
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head)
    const size = length === null ? 0 : Number(length[1])
    if (buf.length < end + 4 + size) break
    statuses.push(Number(head.slice(9, 12)))
    at = end + 4 + size
  }
  return { statuses, consumed: at }
}

/**
 * Helpers for integration specs: a real server on 127.0.0.1 with an ephemeral port, raw
 * sockets for byte-exact exchanges, and a `ws` client that queues what it receives.
 * Every wait is bounded, so a broken server fails a test instead of hanging the suite.
 */
import { connect, type Socket } from 'node:net'
import * as E from 'fp-ts/lib/Either.js'
import WebSocket from 'ws'
import type { LogContext, Logger } from '../../lib/core/log/logger.js'
import { makeLogger } from '../../lib/core/log/make-logger.js'
import { decodeFrame } from '../../lib/core/ws/decode-frame.js'
import type { Frame } from '../../lib/core/ws/frame.js'
import { runServer as runNode } from '../../lib/node/run-server.js'
const runServer: typeof runNode =
  'Bun' in globalThis ? (await import('../../lib/bun/run-server.js')).runServer : 'Deno' in globalThis ? (await import('../../lib/deno/run-server.js')).runServer : runNode
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'

export interface LogRecord {
  readonly level: string
  readonly message: string
  readonly context: LogContext
}

/** A logger that remembers what it was told. */
export const memoryLogger = (): { logger: Logger; records: LogRecord[] } => {
  const records: LogRecord[] = []
  return { logger: makeLogger((entry) => records.push(entry)), records }
}

/** Starts a server on 127.0.0.1:0 with a memory logger unless one is given. */
export const startServer = async (options: ServerOptions = {}): Promise<{ server: ServerHandle; records: LogRecord[]; url: string; port: number }> => {
  const { logger, records } = memoryLogger()
  const server = await runServer({ host: '127.0.0.1', port: 0, logger, ...options })
  return { server, records, url: `http://127.0.0.1:${server.address.port}`, port: server.address.port }
}

export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** Waits until `check` holds (it may ask a server in another process), polling; fails after `ms`. */
export const eventually = async (check: () => boolean | Promise<boolean>, ms = 2000, what = 'condition'): Promise<void> => {
  const until = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await delay(5)
  }
}

/** A raw TCP connection that collects everything it reads. */
export interface RawConnection {
  readonly socket: Socket
  /** Everything received so far. */
  received(): Buffer
  /** Resolves when the peer has closed (or fails after `ms`). */
  closed(ms?: number): Promise<Buffer>
  /** Resolves when what was received satisfies `check`. */
  until(check: (data: Buffer) => boolean, ms?: number): Promise<Buffer>
  write(data: string | Uint8Array): void
}

export const rawConnect = (port: number): Promise<RawConnection> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1')
    // Chunks are joined when read, not on every arrival: megabytes come in thousands of chunks.
    const chunks: Buffer[] = []
    let joined = Buffer.alloc(0)
    let joinedCount = 0
    const data = (): Buffer => {
      if (joinedCount !== chunks.length) {
        joined = Buffer.concat(chunks)
        joinedCount = chunks.length
      }
      return joined
    }
    let ended = false
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk)
    })
    socket.on('close', () => {
      ended = true
    })
    socket.on('error', () => undefined)
    socket.once('connect', () =>
      resolve({
        socket,
        received: data,
        closed: async (ms = 2000) => {
          await eventually(() => ended, ms, 'the server to close the connection')
          return data()
        },
        until: async (check, ms = 2000) => {
          await eventually(() => check(data()), ms, 'the expected bytes')
          return data()
        },
        write: (chunk) => void socket.write(chunk),
      }),
    )
    socket.once('error', reject)
  })

/** Sends `request` on a fresh connection and returns everything until the server closes it. */
export const rawExchange = async (port: number, request: string | Uint8Array, ms = 2000): Promise<string> => {
  const conn = await rawConnect(port)
  conn.write(request)
  try {
    return (await conn.closed(ms)).toString('latin1')
  } finally {
    conn.socket.destroy()
  }
}

/** The status code of the first response in `text`. */
export const statusOf = (text: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? NaN)

/** A `ws` client whose messages are queued for `next()`. */
export interface TestClient {
  readonly ws: WebSocket
  /** The next message as text (binary messages as a Buffer's latin1 text). */
  next(ms?: number): Promise<string>
  /** The next message parsed as JSON. */
  nextJson(ms?: number): Promise<{ event: string; data?: unknown; id?: unknown }>
  /** Sends an event envelope. */
  emit(event: string, data?: unknown, id?: string | number): void
  /** Resolves with the close code and reason. */
  closed(ms?: number): Promise<{ code: number; reason: string }>
  /** Messages received and not yet taken. */
  readonly pending: readonly Buffer[]
}

export const openClient = (port: number, path = '/', options: WebSocket.ClientOptions = {}, scheme: 'ws' | 'wss' = 'ws'): Promise<TestClient> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`${scheme}://127.0.0.1:${port}${path}`, options)
    const client = testClient(ws)
    ws.once('unexpected-response', (_req, res) => reject(new Error(`handshake refused: ${res.statusCode}`)))
    ws.once('error', reject)
    ws.once('open', () => resolve(client))
  })

/** Queues what `ws` receives from now on, for `next()`. */
export const testClient = (ws: WebSocket): TestClient => {
  const queue: Buffer[] = []
  let closeInfo: { code: number; reason: string } | undefined
  ws.on('message', (data: Buffer) => queue.push(data))
  ws.on('close', (code, reason) => {
    closeInfo = { code, reason: reason.toString() }
  })
  ws.on('error', () => undefined)
  const next = async (ms = 2000): Promise<string> => {
    await eventually(() => queue.length > 0, ms, 'a WebSocket message')
    return (queue.shift() as Buffer).toString()
  }
  return {
    ws,
    next,
    nextJson: async (ms) => JSON.parse(await next(ms)) as { event: string; data?: unknown; id?: unknown },
    emit: (event, data, id) => ws.send(JSON.stringify(id === undefined ? { event, data } : { event, data, id })),
    closed: async (ms = 2000) => {
      await eventually(() => closeInfo !== undefined, ms, 'the WebSocket to close')
      return closeInfo as { code: number; reason: string }
    },
    pending: queue,
  }
}

const HANDSHAKE = (path: string): string =>
  `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'

/** A WebSocket spoken over a raw socket, to send frames no well-behaved client would. */
export interface RawWebSocket extends RawConnection {
  /** Frames received after the 101 response (unmasked server frames). */
  frames(): Frame[]
}

export const rawWebSocket = async (port: number, path = '/'): Promise<RawWebSocket> => {
  const conn = await rawConnect(port)
  conn.write(HANDSHAKE(path))
  await conn.until((d) => d.includes('\r\n\r\n'))
  const headEnd = conn.received().indexOf('\r\n\r\n') + 4
  if (!conn.received().subarray(0, headEnd).toString().startsWith('HTTP/1.1 101')) throw new Error('handshake refused')
  return {
    ...conn,
    frames: () => {
      const out: Frame[] = []
      let bytes: Uint8Array = conn.received().subarray(headEnd)
      for (;;) {
        const step = decodeFrame(bytes, { maxPayload: 1 << 26, requireMask: false })
        if (E.isLeft(step) || step.right._tag === 'NeedMore') return out
        out.push(step.right.value)
        bytes = step.right.rest
      }
    },
  }
}

/** The close code of a close frame's payload. */
export const closeCodeOf = (frame: Frame | undefined): number | undefined =>
  frame === undefined || frame.payload.length < 2 ? undefined : ((frame.payload[0] as number) << 8) | (frame.payload[1] as number)

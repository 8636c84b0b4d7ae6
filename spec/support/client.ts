/**
 * Helpers for the client specs: the WebSocket constructor of the runtime (the global one in
 * Bun and Deno, the `ws` package in Node 20), a raw `ws` server to send what a twinport
 * server never would (malformed messages, any close code, the session protocol of
 * docs/protocol.md), a manual clock, and bounded waits on client events. Portable across
 * Node, Bun and Deno.
 */
import type { IncomingMessage } from 'node:http'
import WS, { WebSocketServer } from 'ws'
import type { Client } from '../../lib/client/client.js'
import type { Clock } from '../../lib/client/clock.js'
import type { WebSocketConstructor } from '../../lib/client/web-socket-like.js'

/** The runtime's standard WebSocket when it has one (Bun, Deno, Node ≥ 22), else `ws`. */
export const WebSocketImpl: WebSocketConstructor = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ?? WS

/** A client whose events are not typed, as most specs use it. */
export type AnyClient = Client

/** The next payload of `event` (fails after `ms`). */
export const nextOf = <T = unknown>(client: AnyClient, event: string, ms = 3000): Promise<T> =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      off()
      reject(new Error(`timed out waiting for "${event}"`))
    }, ms)
    const off = client.once(event, (payload) => {
      clearTimeout(timer)
      resolve(payload as T)
    })
  })

/** Every payload of the given events, in order, as `[event, payload]`. */
export const record = (client: AnyClient, events: readonly string[]): [string, unknown][] => {
  const log: [string, unknown][] = []
  for (const event of events) client.on(event, (payload) => void log.push([event, payload]))
  return log
}

/** One connection to a raw server: what it received, and its socket. */
export interface RawPeer {
  readonly socket: WS
  /** The request URL (path and query) of the upgrade. */
  readonly url: string
  readonly request: IncomingMessage
  /** Text messages received, parsed as JSON. */
  readonly received: { event?: unknown; data?: unknown; id?: unknown }[]
  /** Text messages received as they came (a batch, envelopes separated by RS, is not in `received`). */
  readonly texts: string[]
  /** The close code the client sent, once closed. */
  closeCode: number | undefined
  send(value: unknown): void
}

/** A `ws` server on 127.0.0.1:0 that hands each connection to `onPeer`. */
export interface RawServer {
  readonly port: number
  readonly url: string
  readonly peers: RawPeer[]
  /** Stops listening and drops every connection without a close frame. */
  close(): Promise<void>
}

export const rawServer = async (onPeer: (peer: RawPeer) => void = () => undefined, options: { port?: number } = {}): Promise<RawServer> => {
  const wss = new WebSocketServer({ host: '127.0.0.1', port: options.port ?? 0, handleProtocols: (protocols) => [...protocols][0] ?? false })
  await new Promise<void>((resolve, reject) => {
    wss.once('listening', resolve)
    wss.once('error', reject)
  })
  const port = (wss.address() as { port: number }).port
  const peers: RawPeer[] = []
  wss.on('connection', (socket, request) => {
    const peer: RawPeer = {
      socket,
      url: request.url ?? '',
      request,
      received: [],
      texts: [],
      closeCode: undefined,
      send: (value) => socket.send(typeof value === 'string' || value instanceof Uint8Array ? value : JSON.stringify(value)),
    }
    socket.on('message', (data, isBinary) => {
      if (isBinary) return
      const text = data.toString()
      peer.texts.push(text)
      if (!text.includes('\x1e')) peer.received.push(JSON.parse(text) as RawPeer['received'][number])
    })
    socket.on('close', (code) => {
      peer.closeCode = code
    })
    socket.on('error', () => undefined)
    peers.push(peer)
    onPeer(peer)
  })
  return {
    port,
    url: `ws://127.0.0.1:${port}/`,
    peers,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate()
        wss.close(() => resolve())
      }),
  }
}

/** A clock whose time moves only when told; due timers run in order of their time. */
export interface ManualClock extends Clock {
  /** Moves the time forward by `ms`, running every timer that falls due. */
  advance(ms: number): void
  /** Timers not yet run. */
  readonly pending: number
}

export const manualClock = (): ManualClock => {
  let now = 0
  let seq = 0
  const timers = new Map<number, { at: number; run: () => void }>()
  return {
    now: () => now,
    setTimeout: (run, ms) => {
      seq += 1
      timers.set(seq, { at: now + ms, run })
      return seq
    },
    clearTimeout: (handle) => void timers.delete(handle as number),
    advance: (ms) => {
      const until = now + ms
      for (;;) {
        const due = [...timers.entries()].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at || a[0] - b[0])[0]
        if (due === undefined) break
        timers.delete(due[0])
        now = due[1].at
        due[1].run()
      }
      now = until
    },
    get pending() {
      return timers.size
    },
  }
}

/** The query parameters of a peer's upgrade URL. */
export const queryOf = (peer: RawPeer): URLSearchParams => new URL(peer.url, 'ws://x').searchParams

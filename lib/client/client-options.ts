/**
 * The options of `connect`, their defaults, and their check: a bad option is a `TypeError`
 * naming it, thrown by `connect` itself (never later, from a socket callback).
 */
import { type Clock, systemClock } from './clock.js'
import { shouldReconnect } from './should-reconnect.js'
import type { Fallback, WebSocketConstructor } from './web-socket-like.js'

/** How the client comes back after a connection ends. */
export interface ReconnectOptions {
  /** The shortest wait before an attempt, in ms (default 500). */
  readonly minDelay?: number
  /** The longest wait, in ms (default 10,000). */
  readonly maxDelay?: number
  /** Attempts in a row before giving up (default `Infinity`; a successful open starts over). */
  readonly maxAttempts?: number
  /** Whether a close with this code is worth an attempt (default: `shouldReconnect`). */
  readonly shouldReconnect?: (code: number, reason: string) => boolean
}

/** What `connect` accepts; every option has a default. */
export interface ClientOptions {
  /** The WebSocket constructor (default `globalThis.WebSocket`; on Node 20 pass `ws`'s). */
  readonly WebSocket?: WebSocketConstructor
  /**
   * What to do when WebSocket cannot be used: `sseFallback()` of `twinport/client/fallback`
   * (Server-Sent Events down, `POST` up, and back to WebSocket once it works). Absent: WebSocket only.
   */
  readonly fallback?: Fallback
  /** WebSocket subprotocols to offer. */
  readonly protocols?: string | readonly string[]
  /** Reconnection settings, or `false` for none. */
  readonly reconnect?: false | ReconnectOptions
  /** Messages kept while not connected (default 100); `0` turns the queue off. */
  readonly queueSize?: number
  /** Default request time-out in ms (default 10,000); `0` for none. */
  readonly timeout?: number
  /** Longest server message read, in bytes of UTF-8 (default 16 MiB, the server's default). */
  readonly maxMessageBytes?: number
  /** Ask for a session (numbering, recovery, heartbeat) on connect (default `true`). */
  readonly sessions?: boolean
  /** How long past the server's announced heartbeat interval a silent link is given (default 10,000 ms). */
  readonly heartbeatGrace?: number
  /** A number in `[0, 1)` for the reconnect jitter (default `Math.random`). */
  readonly random?: () => number
  /** Time and timers (default the runtime's). */
  readonly clock?: Clock
  /**
   * Called before every attempt: query parameters added to the upgrade URL (a browser
   * WebSocket cannot send headers), so a renewed token goes with the next attempt.
   */
  readonly auth?: () => Readonly<Record<string, string>>
  /**
   * The W3C `traceparent` the connection is opened in, or a function giving one per attempt
   * (`undefined`: none that time). Sent as the upgrade URL's `traceparent` query parameter (a
   * browser WebSocket cannot send headers); a server that traces makes it the parent of the
   * connection's events that carry no trace of their own (docs/protocol.md "Trace context").
   */
  readonly traceparent?: string | (() => string | undefined)
}

/** The options with every default filled in. */
export interface ResolvedClientOptions {
  /** The constructor of each connection's socket: the fallback's when one is given. */
  readonly WebSocket: WebSocketConstructor
  readonly protocols: string | string[] | undefined
  readonly reconnect: Required<ReconnectOptions> | false
  readonly queueSize: number
  readonly timeout: number
  readonly maxMessageBytes: number
  readonly sessions: boolean
  readonly heartbeatGrace: number
  readonly random: () => number
  readonly clock: Clock
  readonly auth: (() => Readonly<Record<string, string>>) | undefined
}

/**
 * Fills in the defaults and checks the options; throws a `TypeError` naming a bad one.
 *
 * @example
 * resolveClientOptions({ WebSocket: WebSocketClass }).queueSize // 100
 * resolveClientOptions({ queueSize: -1 }) // throws TypeError: bad options.queueSize
 */
export const resolveClientOptions = ({
  WebSocket = (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket!,
  fallback,
  protocols,
  reconnect = {},
  queueSize = 100,
  timeout = 10_000,
  maxMessageBytes = 2 ** 24, // 16 MiB
  sessions = true,
  heartbeatGrace = 10_000,
  random = Math.random,
  clock = systemClock,
  auth,
  traceparent,
}: ClientOptions): ResolvedClientOptions => {
  // A fallback may do without WebSocket (an event stream alone).
  if (typeof WebSocket !== 'function' && !fallback) throw new TypeError('no WebSocket')
  if (auth !== undefined && typeof auth !== 'function') throw new TypeError('bad options.auth')
  const { minDelay = 500, maxDelay = 10_000, maxAttempts = Infinity, shouldReconnect: retry = shouldReconnect } = reconnect || {}
  const numbers = { queueSize, timeout, maxMessageBytes, heartbeatGrace, 'reconnect.minDelay': minDelay, 'reconnect.maxDelay': maxDelay, 'reconnect.maxAttempts': maxAttempts }
  for (const [name, value] of Object.entries(numbers)) {
    // `!(value >= 0)` also refuses NaN.
    if (!(typeof value === 'number' && value >= 0)) throw new TypeError(`bad options.${name}`)
  }
  return {
    WebSocket: fallback ? fallback(WebSocket) : WebSocket,
    protocols: typeof protocols === 'string' ? protocols : protocols?.slice(),
    reconnect: reconnect && { minDelay, maxDelay: Math.max(minDelay, maxDelay), maxAttempts, shouldReconnect: retry },
    queueSize,
    timeout,
    maxMessageBytes,
    sessions,
    heartbeatGrace,
    random,
    clock,
    // The trace goes with the query parameters auth gives, asked again at every attempt.
    auth: traceparent === undefined ? auth : () => {
      const value = typeof traceparent === 'function' ? traceparent() : traceparent
      return { ...auth?.(), ...(value && { traceparent: value }) }
    },
  }
}

/**
 * `sseFallback`: `connect`'s `fallback` option (docs/client.md, "Without WebSocket";
 * docs/decisions.md "The client's fallback"). Each connection `connect` opens tries WebSocket
 * first; when the upgrade cannot happen (no open within `upgradeTimeout`, or the socket fails
 * before it opens: a proxy's 403, an antivirus cutting it) the same connection goes on over
 * Server-Sent Events and `POST` (`eventStreamSocket`), and `connect` never sees the difference:
 * one socket opens. While on the event stream it probes WebSocket every `probeInterval`: a
 * WebSocket that resumes the stream's session (`tp_sid`, `tp_last` from the stream's last event
 * id); when it opens, the server moves the session to it (what the stream got meanwhile is
 * replayed on it and dropped as seen by the client), and the link goes on over WebSocket.
 * Sends made while a probe is under way wait for it (they are never lost between the two).
 * The server ends the stream as it moves the session, and that end may reach the client before
 * the probe's open (two sockets: nothing orders them): an end during a probe waits for the
 * probe's verdict, and closes the link only if the probe fails. A probe that opens after the
 * link closed is closed with the link's code (a link dropped to reconnect keeps its session).
 *
 * Not part of `connect`'s bundle: imported only by who uses it. Portable like the core: no
 * node:*, no Buffer, no process.
 */
import { type EventStreamLike, eventStreamSocket, type EventStreamSocketOptions } from './event-stream-socket.js'
import type { Fallback, WebSocketConstructor, WebSocketLike } from './web-socket-like.js'

/** When the fallback is used, and when WebSocket is tried again. */
export interface SseFallbackOptions extends EventStreamSocketOptions {
  /** How long a WebSocket upgrade may take before the event stream is used instead (default 5000 ms). */
  readonly upgradeTimeout?: number
  /**
   * How long a link stays on the event stream before WebSocket is tried again (default 30,000
   * ms): a probe of the live link, and the first choice of the next connections until then.
   */
  readonly probeInterval?: number
  /** `false`: never WebSocket, the event stream at once (the application asks for it). Default `true`. */
  readonly webSocket?: boolean
}

type Handler = 'onopen' | 'onmessage' | 'onerror' | 'onclose'

// Silences a socket let go of (ws raises an error after a close during the handshake: a sink).
const quiet = (s: WebSocketLike): void => {
  s.onopen = s.onmessage = s.onclose = null
  s.onerror = () => undefined
}
const shut = (s: WebSocketLike, code?: number): void => {
  quiet(s)
  try {
    s.close(code)
  } catch {
    // Nothing more to do for a socket that cannot even close.
  }
}

/**
 * The fallback: WebSocket first, Server-Sent Events and `POST` when it cannot be had, and back.
 * One per `connect` (it remembers, for the next connections, that WebSocket failed).
 *
 * @example
 * const client = connect('https://example.com/live', { fallback: sseFallback({ path: '/live/events' }) })
 */
export const sseFallback = (options: SseFallbackOptions = {}): Fallback => {
  const { upgradeTimeout = 5000, probeInterval = 30_000, webSocket = true } = options
  for (const [name, value] of Object.entries({ upgradeTimeout, probeInterval })) {
    if (!(typeof value === 'number' && value >= 0)) throw new TypeError(`sseFallback: options.${name} must be a number >= 0`)
  }
  const Stream = eventStreamSocket(options)
  // Until when the next connections go to the event stream at once (WebSocket failed, the stream did not).
  let streamUntil = 0
  return (WebSocket: WebSocketConstructor) =>
    class FallbackSocket implements WebSocketLike {
      readyState = 0
      binaryType = 'arraybuffer'
      onopen: ((event: never) => void) | null = null
      onmessage: ((event: never) => void) | null = null
      onerror: ((event: never) => void) | null = null
      onclose: ((event: never) => void) | null = null
      /** The socket the link runs on now. */
      private inner: WebSocketLike | undefined
      private timer: ReturnType<typeof setTimeout> | undefined
      // Sends made while a probe is under way, sent on whichever socket the link ends up on.
      private held: string[] | undefined
      // The probe's WebSocket while it is under way; the stream's end if it came meanwhile.
      private probing: WebSocketLike | undefined
      private streamEnd: object | undefined
      // The code the link was closed with (a late probe is closed with it).
      private closedWith = 1000

      constructor(
        private readonly url: string,
        private readonly protocols?: string | string[],
      ) {
        if (webSocket && typeof WebSocket === 'function' && Date.now() >= streamUntil) this.tryWebSocket(url, () => this.useStream(true))
        else this.useStream(false)
      }

      send(data: string): void {
        if (this.held) this.held.push(data)
        else this.inner?.send(data)
      }

      close(code?: number, reason?: string): void {
        clearTimeout(this.timer)
        this.held = undefined
        this.readyState = 3
        this.closedWith = code ?? 1000
        // A probe under way may hold the session already: it goes with the link's code.
        if (this.probing !== undefined) shut(this.probing, this.closedWith)
        this.probing = undefined
        this.inner?.close(code, reason)
      }

      // A WebSocket on `url`: adopted when it opens in time, `failed` otherwise.
      private tryWebSocket(url: string, failed: () => void, probe?: EventStreamLike): void {
        let ws: WebSocketLike
        try {
          ws = new WebSocket(url, this.protocols)
        } catch {
          return failed()
        }
        if (!probe) this.inner = ws
        else this.probing = ws
        let settled = false
        const fail = (): void => {
          if (settled) return
          settled = true
          if (this.probing === ws) this.probing = undefined
          clearTimeout(this.timer)
          shut(ws)
          if (this.readyState !== 3) failed()
        }
        ws.binaryType = 'arraybuffer'
        this.timer = setTimeout(fail, upgradeTimeout)
        ws.onopen = () => {
          settled = true
          if (this.probing === ws) this.probing = undefined
          clearTimeout(this.timer)
          // The link closed meanwhile: a late open is let go of, as the link was.
          if (this.readyState === 3 || (probe && this.inner !== probe)) return shut(ws, this.closedWith)
          if (probe) {
            // The server moved the session to `ws`: the stream (ended by the server, or about
            // to be) is let go of, without a close.
            shut(probe)
            this.streamEnd = undefined
            streamUntil = 0
          }
          this.adopt(ws)
        }
        // A failure before the open (a refused upgrade, a proxy, a time-out) is the fallback's to handle.
        ws.onerror = ws.onclose = fail
      }

      private useStream(afterWebSocket: boolean): void {
        const es = new Stream(this.url)
        this.inner = es
        this.forward(es)
        es.onopen = () => {
          if (afterWebSocket) streamUntil = Date.now() + probeInterval
          this.opened()
          this.probeLater(es)
        }
      }

      // Tries WebSocket on the live link after `probeInterval`, resuming the stream's session.
      private probeLater(es: EventStreamLike): void {
        if (!webSocket || typeof WebSocket !== 'function') return
        this.timer = setTimeout(() => {
          const cursor = /^(.+):(\d+)$/.exec(es.lastEventId)
          const u = new URL(this.url)
          // No session to move (sessions off, none yet): the next connection tries WebSocket.
          if (cursor === null || !u.searchParams.has('tp_v') || this.inner !== es) return
          u.searchParams.set('tp_sid', cursor[1] as string)
          u.searchParams.set('tp_last', cursor[2] as string)
          this.held = []
          void es.idle().then(() => {
            if (this.inner !== es || this.readyState !== 1) return
            this.tryWebSocket(u.href, () => {
              const ended = this.streamEnd
              this.streamEnd = undefined
              // The stream ended while the probe was under way, and the probe failed: the link is gone.
              if (ended !== undefined) return this.gone(es, ended)
              this.release(es)
              this.probeLater(es)
            }, es)
          })
        }, probeInterval)
      }

      // The link goes on over `s` (a WebSocket that opened).
      private adopt(s: WebSocketLike): void {
        this.inner = s
        this.forward(s)
        this.opened()
        this.release(s)
      }

      private release(s: WebSocketLike): void {
        const held = this.held ?? []
        this.held = undefined
        for (const data of held) s.send(data)
      }

      private opened(): void {
        if (this.readyState !== 0) return
        this.readyState = 1
        this.fire('onopen', {})
      }

      private forward(s: WebSocketLike): void {
        s.onmessage = (event: never) => this.fire('onmessage', event)
        s.onerror = (event: never) => this.fire('onerror', event)
        s.onclose = (event: never) => {
          if (this.inner !== s || this.readyState === 3) return
          // The server ends the stream as it moves the session to the probe: the probe decides.
          if (this.probing !== undefined) return void (this.streamEnd = event)
          this.gone(s, event)
        }
      }

      // The link's socket `s` closed: so does the link.
      private gone(s: WebSocketLike, event: object): void {
        clearTimeout(this.timer)
        if (this.inner !== s || this.readyState === 3) return
        this.held = undefined
        this.readyState = 3
        this.fire('onclose', event)
      }

      private fire(handler: Handler, event: object): void {
        ;(this[handler] as ((event: object) => void) | null)?.(event)
      }
    }
}

/**
 * `eventStreamSocket`: a `WebSocket` stand-in that speaks Server-Sent Events and `POST`
 * (docs/protocol.md, "Server-Sent Events"), for `connect`'s `WebSocket` option when WebSocket
 * cannot be used (a proxy that refuses upgrades): the stream (`GET`, read with `fetch`) brings
 * what a WebSocket would receive, one event per message; `send` posts each text, in order, with
 * the session's id in `X-Twinport-Session`. The client above it does not change: sessions,
 * numbering, acknowledgements, the offline queue and the typed API work as over a WebSocket.
 * The session query `connect` adds (`tp_sid`, `tp_last`) becomes the stream's `Last-Event-ID`.
 *
 * Not part of `connect`'s bundle: imported only by who uses it. Portable like the core: no
 * node:*, no Buffer, no process; imports the core's dependency-free SSE reader.
 */
import { readSseEvents, SSE_READER_START, type SseReader } from '../core/sse/read-sse-events.js'
import type { WebSocketLike } from './web-socket-like.js'

/** The part of `fetch` used: a streamed body on `GET`, a text body on `POST`. */
export type StreamFetch = (
  url: string,
  init: { readonly method?: string; readonly headers?: Record<string, string>; readonly body?: string; readonly signal?: AbortSignal },
) => Promise<{ readonly ok: boolean; readonly status: number; readonly statusText: string; readonly headers: { get(name: string): string | null }; readonly body: ReadableStream<Uint8Array> | null }>

/** An event-stream socket, with what `sseFallback` reads of it to move the link back to WebSocket. */
export interface EventStreamLike extends WebSocketLike {
  /** The stream's last event id: the session's cursor (`<sid>:<seq>`) once it has one, else `''`. */
  readonly lastEventId: string
  /** Settles once every post sent so far is answered (or failed). */
  idle(): Promise<void>
}

/** Where the stream and the posts go, and with what. */
export interface EventStreamSocketOptions {
  /** The path of the `sseRoute` and `ssePostRoute` (default: the path of the URL given to `connect`). */
  readonly path?: string
  /** `fetch` (default: the global one). */
  readonly fetch?: StreamFetch
}

// The session message names the session the posts belong to (envelope-wire.ts's SESSION_EVENT).
const SESSION_PREFIX = '{"event":"tp:session"'
// The separator of a batch (envelope.ts's BATCH_SEPARATOR: not imported, the core's envelope
// module would come into the bundle with it).
const RS = '\x1e'
// A post's body at most (UTF-16 units, 3 bytes of UTF-8 each at most: 192 KiB, under the
// server's default `maxBody` of 1 MiB); a longer text is posted alone.
const POST_UNITS = 65_536

/**
 * A `WebSocketConstructor` over an event stream and posts.
 *
 * @example
 * const client = connect('https://example.com/events', { WebSocket: eventStreamSocket() })
 */
export const eventStreamSocket = (options: EventStreamSocketOptions = {}): new (url: string, protocols?: string | string[]) => EventStreamLike =>
  class EventStreamSocket implements EventStreamLike {
    readyState = 0
    lastEventId = ''
    binaryType = 'arraybuffer'
    onopen: ((event: never) => void) | null = null
    onmessage: ((event: never) => void) | null = null
    onerror: ((event: never) => void) | null = null
    onclose: ((event: never) => void) | null = null
    private readonly controller = new AbortController()
    private readonly url: string
    private readonly fetch: StreamFetch
    private sid = ''
    // Posts leave one after the other, in the order sent, once the session is known (what the
    // client sends as the link opens waits for the stream's session event).
    private named: (() => void) | undefined
    private posting: Promise<unknown> = new Promise<void>((resolve) => (this.named = resolve))
    // What `send` was given and no post carries yet; whether a post of it is on the chain.
    private pending: string[] = []
    private scheduled = false

    constructor(url: string) {
      const u = new URL(url)
      u.protocol = u.protocol.replace(/^ws/, 'http')
      if (options.path !== undefined) u.pathname = options.path
      const query = u.searchParams
      const sid = query.get('tp_sid')
      const last = query.get('tp_last')
      for (const name of ['tp_v', 'tp_sid', 'tp_last', 'tp_b', 'tp_c']) query.delete(name)
      this.url = u.href
      // Called as a function, never as this object's method: a browser's `fetch` called with
      // another `this` than the window throws "Illegal invocation".
      this.fetch = options.fetch ?? ((url, init) => (globalThis.fetch as unknown as StreamFetch)(url, init))
      const headers: Record<string, string> = { accept: 'text/event-stream' }
      if (sid !== null && last !== null) headers['last-event-id'] = `${sid}:${last}`
      void this.read(headers)
    }

    send(data: string): void {
      if (this.readyState !== 1) return
      this.pending.push(data)
      if (this.scheduled) return
      this.scheduled = true
      this.posting = this.posting.then(() => this.post())
    }

    close(code = 1000, reason = ''): void {
      this.end(code, reason)
    }

    idle(): Promise<void> {
      return this.posting.then(() => undefined)
    }

    // Posts what is pending, one post at a time: what was sent while the last post was under way
    // (or in the same tick) goes in one body, the texts separated by RS (a batch, which a post
    // may always carry; docs/protocol.md, "Posting"), up to POST_UNITS; the rest in the next.
    private post(): Promise<unknown> | undefined {
      const pending = this.pending
      if (this.readyState !== 1 || pending.length === 0) {
        pending.length = 0
        this.scheduled = false
        return undefined
      }
      let n = 1
      for (let units = (pending[0] as string).length; n < pending.length && units + 1 + (pending[n] as string).length <= POST_UNITS; n++) units += 1 + (pending[n] as string).length
      const body = n === 1 ? (pending[0] as string) : pending.slice(0, n).join(RS)
      pending.splice(0, n)
      if (pending.length > 0) this.posting = this.posting.then(() => this.post())
      else this.scheduled = false
      return this.fetch(this.url.replace(/\?.*$/, ''), { method: 'POST', headers: { 'content-type': 'text/plain;charset=UTF-8', 'x-twinport-session': this.sid }, body, signal: this.controller.signal }).then(
        (res) => {
          // The session is gone from the node that answered: the link is, too.
          if (res.status !== 202) this.end(1006, `post answered ${res.status}`)
        },
        () => this.end(1006, 'post failed'),
      )
    }

    private async read(headers: Record<string, string>): Promise<void> {
      let res: Awaited<ReturnType<StreamFetch>>
      try {
        res = await this.fetch(this.url, { headers, signal: this.controller.signal })
      } catch (error) {
        this.fire('onerror', { message: String(error) })
        return this.end(1006, String(error))
      }
      // A refusal (401, 403, …) reads as the close code a refused upgrade gives: 4000 + status.
      if (!res.ok || res.body === null) return this.end(res.status >= 400 && res.status <= 999 ? 4000 + res.status : 1006, res.statusText)
      if (this.readyState !== 0) return
      this.readyState = 1
      this.fire('onopen', {})
      const reader = res.body.getReader()
      const utf8 = new TextDecoder()
      let state: SseReader = SSE_READER_START
      let rest = ''
      try {
        for (;;) {
          const { value, done } = await reader.read()
          if (done || this.readyState !== 1) break
          const read = readSseEvents(state, rest + utf8.decode(value, { stream: true }))
          state = read.reader
          rest = read.rest
          this.lastEventId = state.lastEventId
          for (const event of read.events) {
            if (event.data.startsWith(SESSION_PREFIX)) {
              this.sid = (JSON.parse(event.data) as { data: { sid: string } }).data.sid
              this.named?.()
            }
            if (this.readyState === 1) this.fire('onmessage', { data: event.data })
          }
        }
      } catch {
        // Cut (the network, or our own abort): ended below.
      }
      this.end(1006, 'the event stream ended')
    }

    private end(code: number, reason: string): void {
      if (this.readyState === 3) return
      this.readyState = 3
      this.named?.() // posts still waiting for a session are dropped (readyState 3): the client resends
      this.controller.abort()
      this.fire('onclose', { code, reason })
    }

    private fire(handler: 'onopen' | 'onmessage' | 'onerror' | 'onclose', event: object): void {
      ;(this[handler] as ((event: object) => void) | null)?.(event)
    }
  }

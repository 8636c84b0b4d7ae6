/**
 * `connect`: a twinport client on one WebSocket URL: events and acknowledged requests in the
 * envelope of docs/protocol.md, reconnection with backoff, an offline queue, sessions with
 * numbered messages (replayed on reconnect) and a heartbeat to notice a dead link.
 *
 * Portable like the core: no node:*, no Buffer, no process; the standard WebSocket (or one
 * given as an option), `setTimeout` through an injectable clock, and nothing imported at run
 * time from outside this folder but the core's dependency-free wire module
 * (`lib/core/ws/envelope-wire.ts`: the envelope's text, batches, the session query and
 * names, shared with the server). Every WebSocket callback is guarded: what goes wrong
 * becomes an `error` event, never an exception in the caller's stack.
 */
import type { RouteSource, RouteTable } from '../core/route/route.js'
import { BATCH_SEPARATOR, CLOSE_RECONNECTING, encodeEnvelope as encode, HEARTBEAT_EVENT, SESSION_EVENT, sessionQuery } from '../core/ws/envelope-wire.js'
import type { EventId } from '../core/ws/event.js'
import type { EventMap } from './app-types.js'
import { backoffDelay } from './backoff-delay.js'
import type { Client, ClientState, LifecycleName, RequestOptions, ResyncReason, SessionInfo, StreamOptions } from './client.js'
import { type ClientOptions, resolveClientOptions } from './client-options.js'
import type { ClientProblem } from './client-problem.js'
import { type EventStream, eventStream } from './event-stream.js'
import { createListeners, type Listener } from './create-listeners.js'
import { readServerMessage, type ServerMessage } from './read-server-message.js'
import { describeFailure, RequestError, type RequestFailure } from './request-error.js'
import type { WebSocketLike } from './web-socket-like.js'


/** Sent when the client drops a link it believes dead: "keep my session, I am coming back". */
export { CLOSE_RECONNECTING } from '../core/ws/envelope-wire.js'

const LIFECYCLE: ReadonlySet<string> = new Set<LifecycleName>(['open', 'close', 'reconnecting', 'reconnected', 'session', 'resync', 'error'])
const RESYNC_REASONS: ReadonlySet<unknown> = new Set<ResyncReason>(['unknown_session', 'gap', 'unavailable'])

// A request waiting for its answer, queued or sent. No closures of its own unless it has a
// signal: thousands of these are made per second.
interface Pending {
  readonly id: number
  readonly event: string
  text: string
  readonly resend: boolean
  sent: boolean
  /** When it times out (clock ms); `Infinity` for never. */
  due: number
  /** The time-out in ms, for the failure. */
  ms: number
  readonly resolve: (data: never) => void
  readonly reject: (error: RequestError) => void
  signal: AbortSignal | undefined
  onAbort: (() => void) | undefined
}

// A ws:// or wss:// URL without fragment; http(s) maps to ws(s), relative URLs resolve
// against the page in a browser.
const socketUrl = (url: string): string => {
  try {
    const u = new URL(url, (globalThis as { location?: { href: string } }).location?.href)
    u.protocol = u.protocol.replace(/^http/, 'ws')
    u.hash = ''
    if (/^wss?:$/.test(u.protocol)) return u.href
  } catch {
    // Not a URL at all: refused below, like one of another scheme.
  }
  throw new TypeError(`connect: not a ws(s) or http(s) URL: ${url}`)
}

/**
 * Opens a client on `url` (`ws:`, `wss:`, or `http(s):`, or a path relative to the page in
 * a browser) and keeps it connected. Type it with the server's route table and event map:
 * `connect<typeof table, ServerEvents>(url)`. Throws a `TypeError` at once for a bad URL or
 * option; everything later is an event or a rejected promise.
 *
 * @example
 * const client = connect<typeof table, ChatEvents>('ws://127.0.0.1:6001/', { WebSocket })
 * client.on('message', (m) => console.log(m.text))
 * const joined = await client.request('join', { room: 'lobby' }, { timeout: 5000 })
 * client.close()
 */
export function connect<App extends RouteSource = RouteTable, Events extends object = EventMap>(
  url: string,
  options?: ClientOptions,
): Client<App, Events>
export function connect(url: string, options: ClientOptions = {}): Client {
  const o = resolveClientOptions(options)
  const { clock } = o
  const base = socketUrl(url)

  let state: ClientState = 'connecting'
  let sock: WebSocketLike | undefined
  let opened = false
  let attempt = 0
  let retryTimer: unknown
  // How the last connection ended: what requests fail with once the client is closed.
  let lastClose = { code: 1006, reason: '' }
  // The session: its id, whether it recovered, the last numbered message, the heartbeat.
  let sid: string | undefined
  let recovered = false
  let lastSeq = 0
  let heartbeat = 0
  let lastSeen = 0
  let liveTimer: unknown
  let nextId = 1
  const pending = new Map<number, Pending>()
  const queue: (string | Pending)[] = []
  const streams = new Set<EventStream<unknown>>()

  const report: (problem: ClientProblem) => void = (problem) => listeners.emit('error', problem)
  const threw = (event: string, error: unknown): void =>
    report({ _tag: 'ListenerFailed', event, error, message: `"${event}" listener threw: ${String(error)}` })
  // A listener of `error` that throws is not reported again (that would loop).
  const listeners = createListeners((event, error) => event !== 'error' && threw(event, error))
  // Runs a socket callback, or one of the options', so that nothing escapes. One argument,
  // not rest parameters: those would cost an array per message.
  const guard =
    <A = void>(name: string, fn: (arg: A) => void) =>
    (arg: A): void => {
      try {
        fn(arg)
      } catch (error) {
        threw(name, error)
      }
    }
  // Batches (docs/protocol.md): once the server said it reads them (`batch`, its byte limit,
  // 0 until then), what is sent in one tick leaves at its end in one message, the envelopes
  // separated by RS; one that would take it past the limit (3 bytes counted per UTF-16 unit:
  // never too few) sends what came before it first. RS ('\x1e'): JSON text never holds it
  // unescaped (RFC 7464).
  let batch = 0
  let out = ''
  const flush = guard('send', () => {
    if (out) sock?.send(out)
    out = ''
  })
  const send = (text: string): unknown => {
    if (!batch) return (sock as WebSocketLike).send(text)
    if ((out.length + text.length) * 3 >= batch) flush()
    return out ? (out += BATCH_SEPARATOR + text) : ((out = text), queueMicrotask(flush))
  }

  const admit = (): RequestFailure | undefined =>
    state === 'closed'
      ? { _tag: 'Closed', ...lastClose }
      : !o.queueSize
        ? { _tag: 'Offline' }
        : queue.length >= o.queueSize
          ? { _tag: 'QueueFull', limit: o.queueSize }
          : undefined

  // Takes a request out of every list; answers whether it was still pending.
  const settle = (p: Pending): boolean => {
    if (!pending.delete(p.id)) return false
    // A listener of `undefined` (failed before it was added) is ignored.
    p.signal?.removeEventListener('abort', p.onAbort as () => void)
    const at = queue.indexOf(p)
    if (at >= 0) queue.splice(at, 1)
    return true
  }
  const fail = (p: Pending, failure: RequestFailure): void => {
    if (settle(p)) p.reject(new RequestError(p.event, p.id, failure))
  }

  // --- time-outs: not a timer per request (armed and cleared thousands of times a second)
  // but one, for the earliest deadline; its sweep fails what is due and arms the next. It is
  // not stopped when requests are answered: it wakes once more, finds nothing due, arms
  // nothing. A deadline later than the armed one costs nothing.
  let sweepAt = Infinity
  let sweepTimer: unknown
  const armSweep = (due: number): void => {
    if (due >= sweepAt) return
    clock.clearTimeout(sweepTimer)
    sweepAt = due
    // Always in the future: a new deadline is now + a time-out, and one the sweep hands on is
    // not yet due (a timer that fired a little early is armed again for the rest).
    sweepTimer = clock.setTimeout(sweep, due - clock.now())
  }
  const sweep = (): void => {
    const now = clock.now()
    let next = (sweepAt = Infinity)
    for (const p of pending.values()) {
      if (p.due <= now) fail(p, { _tag: 'Timeout', ms: p.ms })
      else if (p.due < next) next = p.due
    }
    armSweep(next)
  }

  // --- liveness: a session announces the server's heartbeat interval; silence past it plus
  // the grace means the link is dead. One timer, re-armed when it fires, not per message.
  const watch = (): void => {
    clock.clearTimeout(liveTimer)
    if (!heartbeat || state !== 'open') return
    const bound = heartbeat + o.heartbeatGrace
    liveTimer = clock.setTimeout(
      guard('heartbeat', () => {
        if (clock.now() - lastSeen < bound) return watch()
        const dead = sock as WebSocketLike
        detach(dead)
        try {
          dead.close(CLOSE_RECONNECTING)
        } catch {
          // Nothing more to do for a socket that cannot even close.
        }
        ended(1006, `no heartbeat in ${bound} ms`)
      }),
      Math.max(1, lastSeen + bound - clock.now()),
    )
  }

  // --- incoming
  // An ack (no `failure`) or an error event answers its request; one that answers none is
  // reported, unless it is late news about a request already settled.
  const answer = (id: EventId | undefined, data: unknown, failure?: RequestFailure & { readonly _tag: 'ServerError' }): void => {
    const p = pending.get(id as number)
    if (p) {
      if (failure) fail(p, failure)
      else if (settle(p)) p.resolve(data as never)
      // Every id below `nextId` was a request, so one not pending was settled: a late answer
      // to it (after a time-out, an abort, or a replay) is dropped quietly, however old.
    } else if (!(Number.isSafeInteger(id) && (id as number) > 0 && (id as number) < nextId)) {
      report(
        !failure
          ? { _tag: 'UnknownAck', id: id as EventId, message: `ack for unknown id ${JSON.stringify(id)}` }
          : { ...failure, ...(id !== undefined && { id }), message: `server error ${failure.code}: ${failure.message}` },
      )
    }
  }

  const onSession = (data: unknown): void => {
    // Reading a field of a string, a number or an array gives `undefined` as it does of `{}`.
    const d = (data ?? {}) as { sid?: unknown; recovered?: unknown; heartbeat?: unknown; resync?: unknown; batch?: unknown }
    if (typeof d.sid !== 'string' || !d.sid || typeof d.recovered !== 'boolean') return report({ _tag: 'InvalidMessage', message: 'bad tp:session' })
    const previous = sid
    // A resume that failed: the server's reason, or (an older server) "unknown" when the id changed.
    const resync: ResyncReason | undefined =
      d.recovered || !previous ? undefined : RESYNC_REASONS.has(d.resync) ? (d.resync as ResyncReason) : 'unknown_session'
    sid = d.sid
    recovered = d.recovered
    // A new session numbers from 1 again.
    if (!recovered) lastSeq = 0
    heartbeat = typeof d.heartbeat === 'number' && d.heartbeat > 0 ? d.heartbeat : 0
    // A limit past 2^31 (or none) reads as no batching.
    batch = (d.batch as number) | 0
    watch()
    listeners.emit('session', resync ? { id: sid, recovered, resync } : { id: sid, recovered })
    if (resync) listeners.emit('resync', { reason: resync, previousId: previous as string })
  }

  const onMessage = ({ data: raw }: { data: unknown }): void => {
    lastSeen = clock.now()
    // A batch (once announced) is its envelopes; one over the limit in UTF-16 units already is
    // refused whole.
    const limit = o.maxMessageBytes
    for (const text of batch && (raw as string).length <= limit ? (raw as string).split(BATCH_SEPARATOR) : [raw]) onEnvelope(readServerMessage(text, limit))
  }
  // One envelope, alone or of a batch.
  const onEnvelope = (m: ServerMessage | ClientProblem): void => {
    if (m._tag !== 'ServerMessage') return report(m)
    const { event, data, id, seq } = m
    if (seq) {
      // Already seen: a replay overlapping what arrived before the drop.
      if (seq <= lastSeq) return
      lastSeq = seq
    } // The session messages of docs/protocol.md, never numbered:
    else if (event === SESSION_EVENT) return onSession(data)
    else if (event === HEARTBEAT_EVENT) return
    if (event === 'ack') return id === undefined ? report({ _tag: 'InvalidMessage', message: 'not an event envelope: ack without "id"' }) : answer(id, data)
    if (event === 'error') {
      const d = (data ?? {}) as Record<string, unknown>
      return answer(id, data, {
        _tag: 'ServerError',
        code: String(d['error'] ?? 'unknown'),
        message: String(d['message'] ?? ''),
        ...(d['details'] !== undefined && { details: d['details'] }),
      })
    }
    if (LIFECYCLE.has(event)) return report({ _tag: 'ReservedEvent', event, message: `server event "${event}" has a reserved name` })
    listeners.emit(event, data)
  }

  // --- connection
  const detach = (s: WebSocketLike): void => {
    s.onopen = s.onmessage = s.onclose = null
    // Some implementations (ws) raise an error after a close during the handshake: keep a sink.
    s.onerror = () => undefined
    if (sock === s) sock = undefined
  }

  // Fails the pending requests with `lastClose`: every one, or those sent that may not be sent
  // again. (A Map may lose entries while it is walked.)
  const failClosed = (all?: boolean): void => {
    for (const p of pending.values()) if (all || (p.sent && !p.resend)) fail(p, { _tag: 'Closed', ...lastClose })
  }

  // Closed for good, as `lastClose` says.
  const terminate = (): void => {
    state = 'closed'
    clock.clearTimeout(retryTimer)
    clock.clearTimeout(liveTimer)
    clock.clearTimeout(sweepTimer)
    failClosed(true)
    queue.length = 0
    for (const stream of streams) stream.end()
  }

  // A connection ended: fail what may not be sent again, then retry or stop (`final`: close()
  // called, no retry).
  const ended = (code: number, reason: string, final?: boolean): void => {
    clock.clearTimeout(liveTimer)
    // Until the next connection's session message says otherwise: no heartbeat, no batches.
    heartbeat = batch = 0
    if (state === 'closed') return
    lastClose = { code, reason }
    failClosed()
    // Reconnection off is `false`; `again` is true only with it on.
    const r = o.reconnect as Exclude<typeof o.reconnect, false>
    let again = false
    if (r && !final && attempt < r.maxAttempts) guard('shouldReconnect', () => (again = r.shouldReconnect(code, reason)))()
    listeners.emit('close', { code, reason, reconnect: again })
    // A listener may have closed the client meanwhile.
    if ((state as ClientState) === 'closed') return
    if (!again) return terminate()
    attempt += 1
    state = 'reconnecting'
    let delay = r.minDelay
    guard('random', () => (delay = backoffDelay(attempt, delay, r.maxDelay, o.random)))()
    listeners.emit('reconnecting', { attempt, delay })
    if ((state as ClientState) === 'reconnecting') retryTimer = clock.setTimeout(open, delay)
  }

  const opens = (): void => {
    state = 'open'
    lastSeen = clock.now()
    const after = attempt
    attempt = 0
    // Requests sent before the drop go again with their ids, then the queue, in order.
    for (const p of pending.values()) if (p.sent) send(p.text)
    for (const item of queue.splice(0)) send(typeof item === 'string' ? item : ((item.sent = true), item.text))
    if (opened) listeners.emit('reconnected', { attempt: after })
    else (opened = true), listeners.emit('open')
  }

  const open = (): void => {
    const href = o.sessions ? `${base}${base.includes('?') ? '&' : '?'}${sessionQuery(o.maxMessageBytes, sid, lastSeq)}` : base
    let s: WebSocketLike
    try {
      // No protocols (undefined) is the constructor's own default, in every runtime.
      s = new o.WebSocket(href, o.protocols)
    } catch (error) {
      report({ _tag: 'SocketError', message: String(error) })
      return ended(1006, String(error))
    }
    sock = s
    s.binaryType = 'arraybuffer'
    s.onopen = guard('open', opens)
    s.onmessage = guard('message', onMessage)
    const gone = ({ code, reason }: { code?: number; reason: string }): void => {
      detach(s)
      // Some runtimes (Deno) report 0 for a connection that ended without a close frame.
      ended(code || 1006, reason)
    }
    s.onerror = guard('error', (ev: { message?: unknown }) => {
      report({ _tag: 'SocketError', message: `WebSocket error ${String(ev.message ?? '')}` })
      // A connection that fails is followed by a close event, but in Node 22's WebSocket
      // (undici, nodejs/undici#3546) it stays CONNECTING and nothing follows: it ends here.
      if (!s.readyState) gone({ reason: '' })
    })
    s.onclose = guard('close', gone)
  }

  const client: Client = {
    get state() {
      return state
    },
    get session() {
      // A session id is never empty.
      return (sid && { id: sid, recovered, lastSeq }) as SessionInfo | undefined
    },
    get queued() {
      return queue.length
    },
    emit: (event: string, data?: unknown, opts?: { volatile?: boolean }) => {
      let failure: RequestFailure | undefined
      try {
        const text = encode(event, data)
        if (state === 'open') return send(text), true
        if (opts?.volatile === true) return false
        failure = admit()
        if (!failure) return queue.push(text), true
      } catch (error) {
        failure = { _tag: 'Unserializable', error }
      }
      report({ _tag: 'EmitDropped', event, failure, message: `emit ${describeFailure(event, failure)}` })
      return false
    },
    request: (event: string, data?: unknown, opts: RequestOptions = {}) =>
      new Promise((resolve, reject) => {
        const { signal } = opts
        const ms = opts.timeout ?? o.timeout
        const p: Pending = {
          id: nextId++,
          event,
          text: '',
          resend: opts.resend !== false,
          sent: false,
          due: Infinity,
          ms,
          resolve,
          reject,
          signal,
          onAbort: undefined,
        }
        let failure: RequestFailure | undefined
        try {
          p.text = encode(event, data, p.id)
          failure = signal?.aborted ? { _tag: 'Aborted', reason: signal.reason } : state === 'open' ? undefined : admit()
        } catch (error) {
          failure = { _tag: 'Unserializable', error }
        }
        pending.set(p.id, p)
        if (failure) return fail(p, failure)
        if (ms > 0 && ms < 2 ** 31) armSweep((p.due = clock.now() + ms))
        if (signal) {
          p.onAbort = () => fail(p, { _tag: 'Aborted', reason: signal.reason })
          signal.addEventListener('abort', p.onAbort)
        }
        if (state !== 'open') return void queue.push(p)
        p.sent = true
        send(p.text)
      }),
    on: (event: string, fn: Listener) => listeners.on(event, fn),
    once: (event: string, fn: Listener) => listeners.on(event, fn, true),
    off: listeners.off,
    events: (event: string, opts?: StreamOptions) => {
      const stream: EventStream<unknown> = eventStream({
        ...opts,
        subscribe: (push) => {
          const off = listeners.on(event, push)
          return () => {
            off()
            streams.delete(stream)
          }
        },
        name: event,
      })
      if (state === 'closed') stream.end()
      else streams.add(stream)
      return stream
    },
    clearQueue: () => {
      const items = queue.splice(0)
      for (const item of items) if (typeof item !== 'string') fail(item, { _tag: 'Cleared' })
      return items.length
    },
    close: (code = 1000, reason = '') => {
      if (code !== 1000 && !(code >= 3000 && code <= 4999)) throw new RangeError(`close: code ${code} is not 1000 or 3000-4999`)
      if (state === 'closed') return
      // What this tick sent leaves before the close frame.
      flush()
      const s = sock
      if (s) {
        detach(s)
        try {
          s.close(code, reason)
        } catch {
          // A reason over 123 bytes of UTF-8: close without it.
          s.close(code)
        }
      }
      ended(code, reason, true)
    },
  }
  open()
  return client
}

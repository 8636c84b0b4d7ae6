/**
 * `connect`: a twinport client on one WebSocket URL: events and acknowledged requests in the
 * envelope of docs/protocol.md, reconnection with backoff, an offline queue, sessions with
 * numbered messages (replayed on reconnect) and a heartbeat to notice a dead link.
 *
 * Its parts: the link's state machine (`LinkState`, link-state.ts) and the client's surface
 * live here; what is sent (`createOutbox`, outbox.ts) and the requests awaiting answers
 * (`createPendingRequests`, pending-requests.ts) are closures of their own that hand back
 * tuples, and the URL is `socketUrl`'s. Tuples and closure variables, not records of
 * functions or objects with fields: a browser bundle minifies them to single letters
 * (bench/client-bundle.ts). Over 300 lines because the state machine reads best whole.
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
import type { EventMap } from './app-types.js'
import { backoffDelay } from './backoff-delay.js'
import type { AskMap, Client, LifecycleName, RequestOptions, ResyncReason, SessionInfo } from './client.js'
import { type ClientOptions, resolveClientOptions } from './client-options.js'
import type { ClientProblem } from './client-problem.js'
import { createListeners, type Listener } from './create-listeners.js'
import { readServerMessage, type ServerMessage } from './read-server-message.js'
import type { LinkState } from './link-state.js'
import { createOutbox } from './outbox.js'
import { type Closed, createPendingRequests, type Pending, type Queued } from './pending-requests.js'
import { describeFailure, type RequestFailure } from './request-error.js'
import { socketUrl } from './socket-url.js'
import type { WebSocketLike } from './web-socket-like.js'

/** Sent when the client drops a link it believes dead: "keep my session, I am coming back". */
export { CLOSE_RECONNECTING } from '../core/ws/envelope-wire.js'

const LIFECYCLE: ReadonlySet<string> = new Set<LifecycleName>(['open', 'close', 'reconnecting', 'reconnected', 'session', 'resync', 'refused', 'kicked'])

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
export function connect<App extends RouteSource = RouteTable, Events extends object = EventMap, Asks extends object = AskMap>(
  url: string,
  options?: ClientOptions,
): Client<App, Events, Asks>
export function connect(url: string, options: ClientOptions = {}): Client {
  const o = resolveClientOptions(options)
  const { clock } = o
  const base = socketUrl(url)

  let link: LinkState = { _tag: 'connecting' }
  // The socket of the link, while it has one.
  let sock: WebSocketLike | undefined
  // The session: its id, whether it recovered, the last numbered message, the heartbeat.
  let sid: string | undefined
  let recovered = false
  let lastSeq = 0
  let heartbeat = 0
  let lastSeen = 0
  let liveTimer: unknown
  // Whether the server said anything on this connection: a 4xxx close before is a refusal.
  let heard = false
  // The handlers of the server's requests, by event.
  const asks = new Map<string, (data: unknown) => unknown>()

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
  // The server's batch limit on this connection (0: it reads and sends no batches).
  let batch = 0
  const queue: Queued[] = []
  const [send, flush, drain] = createOutbox(() => sock, () => batch, queue, guard)
  const [pending, nextId, add, fail, answer, failClosed] = createPendingRequests(clock, queue, report)

  // Why a message cannot be queued: the client is closed, the queue is off or full.
  const admit = (): RequestFailure | undefined =>
    link._tag === 'closed'
      ? link.closed
      : !o.queueSize
        ? { _tag: 'Offline' }
        : queue.length >= o.queueSize
          ? { _tag: 'QueueFull', limit: o.queueSize }
          : undefined

  // --- liveness: a session announces the server's heartbeat interval; silence past it plus
  // the grace means the link is dead. One timer, re-armed when it fires, not per message.
  const watch = (): void => {
    clock.clearTimeout(liveTimer)
    if (!heartbeat || link._tag !== 'open') return
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
  const onSession = (data: unknown): void => {
    // Reading a field of a string, a number or an array gives `undefined` as it does of `{}`.
    const d = (data ?? {}) as { sid?: unknown; recovered?: unknown; heartbeat?: unknown; resync?: unknown; batch?: unknown }
    if (typeof d.sid !== 'string' || !d.sid || typeof d.recovered !== 'boolean') return report({ _tag: 'InvalidMessage', message: 'bad tp:session' })
    const previous = sid
    // A resume that failed: the server's reason, or (an older server) "unknown" when the id changed.
    const resync: ResyncReason | undefined =
      d.recovered || !previous ? undefined : d.resync === 'gap' || d.resync === 'unavailable' ? d.resync : 'unknown_session'
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
    heard = true
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
    if (event === 'error') return answer(id, data, true)
    // A server request (it has an id): answered with the handler's value, or why not.
    if (id !== undefined) {
      const fn = asks.get(event)
      return void Promise.resolve(data)
        .then((d) => (fn as (d: unknown) => unknown)(d))
        .then((v) => encode('ack', v, id))
        .catch(() => encode('error', { error: fn ? 'handler_error' : 'no_handler' }, id))
        .then((text) => (link._tag === 'open' ? send(text) : queue.push(text)))
    }
    if (LIFECYCLE.has(event)) return report({ _tag: 'ReservedEvent', event, message: `reserved event "${event}"` })
    listeners.emit(event, data)
  }

  // --- the link (LinkState): one socket at a time, reconnection with backoff
  const detach = (s: WebSocketLike): void => {
    s.onopen = s.onmessage = s.onclose = null
    // Some implementations (ws) raise an error after a close during the handshake: keep a sink.
    s.onerror = () => undefined
    if (sock === s) sock = undefined
  }

  // A connection ended: fail what may not be sent again, then retry or stop (`final`: close()
  // called, no retry).
  const ended = (code: number, reason: string, final?: boolean): void => {
    clock.clearTimeout(liveTimer)
    // Until the next connection's session message says otherwise: no heartbeat, no batches.
    heartbeat = batch = 0
    if (link._tag === 'closed') return
    const closed: Closed = { _tag: 'Closed', code, reason }
    failClosed(closed)
    // Reconnection off is `false`; `again` is true only with it on.
    const r = o.reconnect as Exclude<typeof o.reconnect, false>
    const { attempt = 0, opened = link._tag === 'open' } = link as { attempt?: number; opened?: boolean }
    let again = false
    if (r && !final && attempt < r.maxAttempts) guard('shouldReconnect', () => (again = r.shouldReconnect(code, reason)))()
    listeners.emit('close', { code, reason, reconnect: again })
    // A listener may have closed the client meanwhile.
    if ((link as LinkState)._tag === 'closed') return
    if (!again) {
      // Closed for good.
      clock.clearTimeout((link as { timer?: unknown }).timer)
      link = { _tag: 'closed', closed }
      failClosed(closed, true)
      queue.length = 0
      // The server's "stay away" (docs/protocol.md, "Refused upgrades and kicks").
      if (!final && code >= 4000 && code <= 4999) listeners.emit(heard ? 'kicked' : 'refused', { code, reason })
      return
    }
    let delay = r.minDelay
    link = { _tag: 'reconnecting', attempt: attempt + 1, opened }
    guard('random', () => (delay = backoffDelay(attempt + 1, delay, r.maxDelay, o.random)))()
    listeners.emit('reconnecting', { attempt: attempt + 1, delay })
    if (link._tag === 'reconnecting') link = { ...link, timer: clock.setTimeout(open, delay) }
  }

  const opens = (): void => {
    const { attempt = 0, opened = false } = link as { attempt?: number; opened?: boolean }
    link = { _tag: 'open' }
    lastSeen = clock.now()
    drain(pending.values())
    if (opened) listeners.emit('reconnected', { attempt })
    else listeners.emit('open')
  }

  const open = (): void => {
    heard = false
    let s: WebSocketLike
    try {
      // Refusals as close codes: asked by the session query, else by tp_c=1; then what auth gives.
      let href = `${base}${base.includes('?') ? '&' : '?'}${o.sessions ? sessionQuery(o.maxMessageBytes, sid, lastSeq) : 'tp_c=1'}&tp_r=1`
      if (o.auth) href += `&${new URLSearchParams(o.auth())}`
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
      return link._tag
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
        if (link._tag === 'open') return send(text), true
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
        const id = nextId()
        let text = ''
        let failure: RequestFailure | undefined
        try {
          text = encode(event, data, id)
          failure = signal?.aborted ? { _tag: 'Aborted', reason: signal.reason } : link._tag === 'open' ? undefined : admit()
        } catch (error) {
          failure = { _tag: 'Unserializable', error }
        }
        // Sent now when the link is open, else queued (unless it failed).
        const sent = link._tag === 'open'
        const p: Pending = { id, event, text, resend: opts.resend !== false, sent, due: Infinity, ms: opts.timeout ?? o.timeout, resolve, reject, signal }
        add(p, failure)
        if (!failure) sent ? send(text) : queue.push(p)
      }),
    on: (event: string, fn: Listener) => listeners.on(event, fn),
    once: (event: string, fn: Listener) => listeners.on(event, fn, true),
    off: listeners.off,
    reconnect: () => {
      if (link._tag !== 'closed') return
      link = { _tag: 'connecting' }
      open()
    },
    handle: (event: string, fn: (data: unknown) => unknown) => {
      asks.set(event, fn)
      return () => asks.get(event) === fn && asks.delete(event)
    },
    clearQueue: () => {
      const items = queue.splice(0)
      for (const item of items) if (typeof item !== 'string') fail(item, { _tag: 'Cleared' })
      return items.length
    },
    close: (code = 1000, reason = '') => {
      if (code !== 1000 && !(code >= 3000 && code <= 4999)) throw new RangeError(`close: code ${code} is not 1000 or 3000-4999`)
      if (link._tag === 'closed') return
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

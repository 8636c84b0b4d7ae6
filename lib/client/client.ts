/**
 * The client `connect` returns, as types: its state, its lifecycle events and the typed
 * `emit` / `request` / `on` of an application's route table and event map. Types only.
 */
import type { RouteTable } from '../core/route/route.js'
import type { EventData, EventMap, EventName, EventResult } from './app-types.js'
import type { ClientProblem } from './client-problem.js'

/**
 * `connecting` (first attempt), `open`, `reconnecting` (waiting for, or making, another
 * attempt) and `closed` (for good: `close()`, a close code not retried, or no attempts left).
 */
export type ClientState = 'connecting' | 'open' | 'reconnecting' | 'closed'

/**
 * Why the server could not resume the session the client asked for (docs/protocol.md,
 * "Resync"): `unknown_session` (expired, closed or never known), `gap` (messages it missed
 * are no longer kept, or were never recorded), `unavailable` (the server's session store did
 * not answer). What the app built from earlier messages may be stale: fetch the state again.
 */
export type ResyncReason = 'unknown_session' | 'gap' | 'unavailable'

/** The session the server gave this client (see docs/protocol.md, "Sessions"). */
export interface SessionInfo {
  /** The session id, presented again on reconnect. */
  readonly id: string
  /** Whether the last connection resumed the session (nothing missed) or started a new one. */
  readonly recovered: boolean
  /** The number of the last server message processed. */
  readonly lastSeq: number
}

/** The client's own events, beside the server's. */
export interface LifecycleEvents {
  /** The first connection is open (queued messages have just been sent). */
  readonly open: undefined
  /** A connection ended; `reconnect` tells whether another attempt follows. */
  readonly close: { readonly code: number; readonly reason: string; readonly reconnect: boolean }
  /** Another attempt starts after `delay` ms. */
  readonly reconnecting: { readonly attempt: number; readonly delay: number }
  /** A connection is open again, after `attempt` attempts (queued messages have just been sent). */
  readonly reconnected: { readonly attempt: number }
  /**
   * The server's session message: `recovered: false` means state kept on the server is gone;
   * `resync` is set when this connection asked to resume a session and could not.
   */
  readonly session: { readonly id: string; readonly recovered: boolean; readonly resync?: ResyncReason }
  /**
   * A resume failed: the client has a fresh session (no rooms, no data on the server) and may
   * have missed messages. Comes right after `session` (the server's first message on the
   * new connection, after `reconnected`).
   */
  readonly resync: { readonly reason: ResyncReason; readonly previousId: string }
  /**
   * The server refused the connection (a 4xx at the upgrade, read as close code `4000 +
   * status`, or any 4000–4999 close before the server's first message): the client is closed
   * and does not retry; `reconnect()` tries again (after the app renewed what `auth` gives).
   */
  readonly refused: { readonly code: number; readonly reason: string }
  /** The server closed an open connection with a 4000–4999 "stay away" code: closed, no retry. */
  readonly kicked: { readonly code: number; readonly reason: string }
  /** Something went wrong that rejects no promise; the client is still usable. */
  readonly error: ClientProblem
}

/** The names of the lifecycle events; a server event with one of these names is not delivered. */
export type LifecycleName = keyof LifecycleEvents

/** What a listener of `K` receives. */
export type Payload<Events, K> = K extends LifecycleName ? LifecycleEvents[K] : K extends keyof Events ? Events[K] : never

/** Every name `on` accepts: the lifecycle events and the server's events. */
export type ListenName<Events> = LifecycleName | (keyof Events & string)

/** Options of one `emit`. */
export interface EmitOptions {
  /** Drop the message instead of queueing it when not connected. */
  readonly volatile?: boolean
}

/** Options of one `request`. */
export interface RequestOptions {
  /** Time-out in ms, from the call (queued time included); `0` for none. Default: the client's. */
  readonly timeout?: number
  /** Rejects the request (with `Aborted`) when it fires. */
  readonly signal?: AbortSignal
  /** Send again, with the same id, after a reconnect if no answer came (default `true`). */
  readonly resend?: boolean
}

/** Options of `events(client, name)` (events.ts). */
export interface StreamOptions {
  /** Ends the iteration when it fires. */
  readonly signal?: AbortSignal
  /** Messages kept while the loop is busy (default 1024); past it the iteration fails. */
  readonly buffer?: number
}

/** `emit`'s arguments after the name: data is optional when the route's type allows `undefined`. */
export type EmitArgs<D> = undefined extends D ? [data?: D, options?: EmitOptions] : [data: D, options?: EmitOptions]

/** `request`'s arguments after the name. */
export type RequestArgs<D> = undefined extends D ? [data?: D, options?: RequestOptions] : [data: D, options?: RequestOptions]

/**
 * A connection to a twinport server, typed by its route table `App` (`typeof table`) and the
 * map `Events` of what the server sends. Untyped, any name and any data go.
 */
/**
 * What the server may ask a client (docs/protocol.md, "Server requests"), by event: the
 * handler's type, its data in, its answer out. A plain interface both sides import
 * (`interface Asks { confirm: (text: string) => boolean }`); any name by default.
 */
export type AskMap = { readonly [event: string]: (data: never) => unknown }

/** The handler of server request `K` of `Asks`: its answer, or a promise of it. */
export type AskHandler<Asks extends object, K extends keyof Asks> = Asks[K] extends (data: infer D) => infer A ? (data: D) => A | Promise<Awaited<A>> : never

export interface Client<App = RouteTable, Events extends object = EventMap, Asks extends object = AskMap> {
  readonly state: ClientState
  /** The session, once the server has given one. */
  readonly session: SessionInfo | undefined
  /** Messages waiting in the offline queue. */
  readonly queued: number
  /**
   * Sends an event without waiting for an answer. Not connected, it is queued (or dropped
   * when `volatile`). Answers `false` when it was dropped (the `error` event tells why, unless
   * it was volatile).
   */
  emit<K extends EventName<App>>(event: K, ...args: EmitArgs<EventData<App, K>>): boolean
  /** Sends an event with an id and resolves with the ack's data; rejects with a `RequestError`. */
  request<K extends EventName<App>>(event: K, ...args: RequestArgs<EventData<App, K>>): Promise<EventResult<App, K>>
  /** Listens to a server event or a lifecycle event; the answer unsubscribes. */
  on<K extends ListenName<Events>>(event: K, listener: (payload: Payload<Events, K>) => void): () => void
  /** Like `on`, for the next time only. */
  once<K extends ListenName<Events>>(event: K, listener: (payload: Payload<Events, K>) => void): () => void
  /** Removes a listener added with `on` or `once`. */
  off<K extends ListenName<Events>>(event: K, listener: (payload: Payload<Events, K>) => void): void
  /**
   * Starts again after the client closed for good (a refusal, a kick, no more attempts, or
   * `close()`): a new first connection, `open` when it opens. Does nothing while not closed.
   */
  reconnect(): void
  /**
   * Answers the server's requests for `event` (`server.requestClient`, `ctx.requestRoom`)
   * with what `fn` returns or resolves to; a second handler replaces the first. Answers
   * `handler_error` when it throws, `no_handler` for an event without one. Returns a function
   * that removes it.
   */
  handle<K extends keyof Asks & string>(event: K, fn: AskHandler<Asks, K>): () => void
  /** Empties the offline queue: queued requests reject with `Cleared`. Answers how many went. */
  clearQueue(): number
  /** Closes for good with `code` (1000, or 3000–4999) and `reason`; pending requests reject with `Closed`. */
  close(code?: number, reason?: string): void
}

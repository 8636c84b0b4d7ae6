/**
 * `hubClass`: the Durable Object class of a `toWorker` app, a hub of WebSocket clients.
 * The Worker decides an upgrade (validation, origins, the HTTP middleware) and hands it to
 * the hub named by `hubOf`; the hub makes the `WebSocketPair`, accepts the server end with the
 * Hibernation API (`state.acceptWebSocket`: the object may leave memory while its clients
 * are idle, and the runtime wakes it for their next message), keeps each client in its
 * socket's attachment, and runs the route table with the core's own dispatch:
 * `decodeEnvelope`, `dispatchEvent` (WebSocket middleware, codecs, acks, error events),
 * `dispatchRawNow`, `dispatchConnect`, `dispatchDisconnect`. A client's messages are handled
 * one after the other, after its connect handlers.
 *
 * Portable: no node:* imports, no Buffer (it runs on workerd).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Header } from '../core/http/types.js'
import type { Logger } from '../core/log/logger.js'
import type { CompiledRoutes } from '../core/route/compiled-routes.js'
import { dispatchConnect } from '../core/route/dispatch-connect.js'
import { dispatchDisconnect } from '../core/route/dispatch-disconnect.js'
import { dispatchEvent } from '../core/route/dispatch-event.js'
import { dispatchRawNow } from '../core/route/dispatch-raw.js'
import { rawBinary, rawText } from '../core/route/raw-message.js'
import type { WsErrorReporter } from '../core/route/ws-error-reporter.js'
import type { WsMiddleware } from '../core/route/ws-middleware.js'
import { decodeEnvelope, encodeAck, encodeErrorEvent } from '../core/ws/envelope.js'
import type { EventId } from '../core/ws/event.js'
import { targetOf } from '../fetch/web-request.js'
import { newAttachment } from './attachment.js'
import { isHubBroadcast, readHubBroadcast } from './hub-broadcast.js'
import { HubContext, type HubOps } from './hub-context.js'
import { HubMembers, type Member, oversize } from './hub-members.js'
import { ATTACHMENT_LIMIT } from './attachment-size.js'
import { type DurableObjectStateLike, upgradeResponse, webSocketPair, type WorkerWebSocket } from './workers-api.js'

/** What every hub of an app shares: its compiled routes, WebSocket middleware and logger. */
export interface HubShared {
  readonly compiled: CompiledRoutes
  readonly wsMiddleware: readonly WsMiddleware[]
  readonly onError: WsErrorReporter
  readonly logger: Logger
}

/**
 * The header that carries the Worker's decision to the hub (set by the Worker, never taken
 * from the client): JSON `{ "data": <client data>, "headers": [[name, value], ...] }`.
 */
export const HANDOFF_HEADER = 'x-twinport-handoff'

/** The Worker's decision about an upgrade, as the hub reads it. */
export interface Handoff {
  /** The client data the upgrade's middleware stored (`ctx.handshake`). */
  readonly data?: Readonly<Record<string, unknown>>
  /** Headers for the 101 (a chosen subprotocol, a middleware's cookie). */
  readonly headers: readonly Header[]
}

// Where a hub keeps the last client id it gave (ids are per hub, never reused).
const LAST_ID = 'twinport:lastId'

const handoffOf = (request: Request): Handoff => {
  const text = request.headers.get(HANDOFF_HEADER)
  if (text === null) return { headers: [] }
  const value = JSON.parse(text) as Handoff
  return { headers: Array.isArray(value.headers) ? value.headers : [], ...(value.data === undefined ? {} : { data: value.data }) }
}

const jsonAnswer = (status: number, body: unknown): Response => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })

// A close code the runtime may send back: 1005 and 1006 are never sent on the wire (RFC 6455 §7.4.1).
const sendable = (code: number): number => (code === 1005 || code === 1006 ? 1000 : code)

/** The constructor the Workers runtime calls for each object (`new Hub(state, env)`). */
export type HubClass = new (state: DurableObjectStateLike, env: unknown) => TwinportHub

/** One hub: a Durable Object holding WebSocket clients. */
export interface TwinportHub extends HubOps {
  fetch(request: Request): Promise<Response>
  webSocketMessage(socket: WorkerWebSocket, message: string | ArrayBuffer): Promise<void>
  webSocketClose(socket: WorkerWebSocket, code: number, reason: string, wasClean: boolean): Promise<void>
  webSocketError(socket: WorkerWebSocket, error: unknown): Promise<void>
}

/**
 * The Durable Object class of `shared`'s app, to export from the Worker's module under the
 * name its binding gives (`class_name` in wrangler.toml).
 *
 * @example
 * const Hub = hubClass({ compiled, wsMiddleware: [], onError, logger })
 * export { Hub as TwinportHub }
 */
export const hubClass = (shared: HubShared): HubClass => {
  const { compiled, wsMiddleware, onError } = shared

  return class Hub implements TwinportHub {
    readonly members: HubMembers

    constructor(
      private readonly state: DurableObjectStateLike,
      _env: unknown,
    ) {
      this.members = new HubMembers(state)
    }

    /**
     * An upgrade the Worker accepted: the pair, the server end taken over, the connect handlers;
     * or a broadcast from the Worker's HTTP side (hub-broadcast.ts).
     */
    async fetch(request: Request): Promise<Response> {
      if (isHubBroadcast(request)) return this.broadcastFromWorker(request)
      const Pair = webSocketPair()
      if (Pair === undefined || request.headers.get('upgrade')?.toLowerCase() !== 'websocket') {
        return jsonAnswer(400, { error: 'a hub takes WebSocket upgrades only' })
      }
      const handoff = handoffOf(request)
      // After a wake the stored id may be behind a held socket's (storage kept in memory only): never reuse one.
      const id = Math.max((await this.state.storage.get<number>(LAST_ID)) ?? 0, this.members.highestId()) + 1
      await this.state.storage.put(LAST_ID, id)
      const pair = new Pair()
      const server = pair[1]
      const attachment = newAttachment(id, { target: targetOf(request.url).target, headers: [...request.headers] }, handoff.data)
      const size = oversize(attachment)
      if (size !== undefined) {
        // Workers would refuse to keep it: the client's target (414) or the handshake's data (the app's, 500).
        const byApp = oversize({ ...attachment, data: undefined }) === undefined
        shared.logger.error('twinport/workers: an upgrade refused: its attachment would be about {size} bytes, past the {limit} Cloudflare keeps ({what})', {
          size,
          limit: ATTACHMENT_LIMIT,
          what: byApp ? 'the client data the upgrade middleware stored' : 'the request target and kept headers',
        })
        return jsonAnswer(byApp ? 500 : 414, { error: 'attachment_too_large' })
      }
      server.serializeAttachment(attachment)
      this.state.acceptWebSocket(server)
      const member = this.members.add(server, attachment)
      member.turn = dispatchConnect(compiled, new HubContext(this, member), onError).then(() => undefined)
      const headers = new Headers()
      for (const [name, value] of handoff.headers) headers.append(name, value)
      return upgradeResponse(pair[0], headers)
    }

    // An HTTP handler's broadcast, posted by the Worker: to this hub's receivers of its target, as it came.
    private async broadcastFromWorker(request: Request): Promise<Response> {
      const read = await readHubBroadcast(request)
      if (E.isLeft(read)) return jsonAnswer(400, { error: read.left })
      const { target, message } = read.right
      const receivers = this.members.receivers(target)
      for (const member of receivers) this.sendTo(member, message)
      return jsonAnswer(200, { delivered: receivers.length })
    }

    webSocketMessage(socket: WorkerWebSocket, message: string | ArrayBuffer): Promise<void> {
      const member = this.members.of(socket)
      if (member === undefined) return Promise.resolve()
      // In order, after the connect handlers and the messages before it.
      member.turn = member.turn.then(() => this.handle(member, message))
      return member.turn
    }

    webSocketClose(socket: WorkerWebSocket, code: number, reason: string): Promise<void> {
      // The close handshake: the peer's code echoed (the runtime may have done it already).
      try {
        socket.close(sendable(code), reason)
      } catch {
        // Closed already.
      }
      return this.departed(socket)
    }

    webSocketError(socket: WorkerWebSocket): Promise<void> {
      return this.departed(socket)
    }

    sendTo(member: Member, message: string | Uint8Array): void {
      if (member.attachment.gone === true) return
      try {
        member.socket.send(message)
      } catch {
        // The socket closed under us: its close event removes the member.
      }
    }

    closeMember(member: Member, code: number, reason: string): void {
      if (member.attachment.gone === true) return
      // Marked first: an event of this socket after a wake finds it gone.
      this.members.update(member, { ...member.attachment, gone: true })
      this.members.remove(member)
      try {
        member.socket.close(code, reason)
      } catch {
        // Closed already.
      }
      member.turn = member.turn.then(() => this.disconnected(member))
    }

    // The client left (its close or an error): out of the hub, then its disconnect handlers.
    private departed(socket: WorkerWebSocket): Promise<void> {
      const member = this.members.of(socket)
      if (member === undefined || member.attachment.gone === true) return Promise.resolve()
      this.members.remove(member)
      member.turn = member.turn.then(() => this.disconnected(member))
      return member.turn
    }

    private async disconnected(member: Member): Promise<void> {
      await dispatchDisconnect(compiled, new HubContext(this, member), onError)
    }

    private async handle(member: Member, message: string | ArrayBuffer): Promise<void> {
      if (member.attachment.gone === true) return
      const ctx = new HubContext(this, member)
      if (compiled.raw !== undefined || typeof message !== 'string') {
        const raw = typeof message === 'string' ? rawText(message) : rawBinary(new Uint8Array(message))
        const outcome = await dispatchRawNow(compiled, raw, ctx, onError)
        if (outcome._tag === 'Reply') this.sendTo(member, outcome.message._tag === 'Text' ? outcome.message.text : outcome.message.data)
        else if (outcome._tag === 'NoRawRoute') this.closeMember(member, outcome.closeCode, 'binary messages are not supported')
        return
      }
      const envelope = decodeEnvelope(message)
      if (E.isLeft(envelope)) return this.sendTo(member, encodeErrorEvent(envelope.left))
      const { event } = envelope.right
      const outcome = await dispatchEvent(compiled, envelope.right, ctx, { middleware: wsMiddleware, onError })
      if (outcome._tag === 'Ack') this.sendTo(member, this.ackText(outcome.id, outcome.value, event, member))
      else if (outcome._tag === 'Failed') this.sendTo(member, encodeErrorEvent(outcome.error))
    }

    // A return value JSON cannot hold (a cycle, a BigInt) is the handler's failure, not a crash.
    private ackText(id: EventId, value: unknown, event: string, member: Member): string {
      try {
        return encodeAck(id, value)
      } catch (error) {
        onError(error, { phase: 'event', clientId: member.attachment.id, event })
        return encodeErrorEvent({ code: 'handler_error', message: `the answer of "${event}" is not JSON`, id })
      }
    }
  }
}

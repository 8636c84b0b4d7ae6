/**
 * `Upgrades`: the WebSocket handshake of one server (RFC 6455 §4.2). `decide` answers an
 * upgrade request with an `UpgradeDecision`: the core validates it, permessage-deflate is
 * negotiated, the HTTP middleware sees it like any request (authentication, logging), then
 * the route table's upgrade guards of its path (`upgradeGuard`); either may refuse it, add
 * headers to the 101 or give the connection its first client data (`ctx.handshake`), and a
 * resume of a session this node does not hold waits for the recovery store (within its bound). The HTTP connection keeps the decision in
 * the request's slot; at its turn `takeOver` sends the 101 and makes the socket a WebSocket
 * connection: its session (recovery), its compression, its namespace, its connect handlers.
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import { compactRequest } from '../../core/http/compact-request.js'
import { errorResponse } from '../../core/http/response.js'
import { internalError } from '../../core/route/settle-answer.js'
import { withHeader } from '../../core/http/response-updates.js'
import type { Header, HttpRequest, Response } from '../../core/http/types.js'
import type { HttpStack } from '../../core/route/compose-http.js'
import type { Handshake } from '../../core/route/handshake.js'
import type { HttpContext } from '../../core/route/http-context.js'
import { handshakeResponse } from '../../core/ws/handshake-response.js'
import { type UpgradeOptions, validateUpgrade } from '../../core/ws/validate-upgrade.js'
import type { ClientContext } from './client-context.js'
import type { ClientTable } from '../registry/client-table.js'
import type { ConnectHandlers } from './connect-handlers.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import type { SocketIo, Timers } from '../platform.js'
import { RefusedUpgrade } from './refused-upgrade.js'
import { ClientRequests } from '../delivery/client-requests.js'
import { encodeFrameBytes } from '../../core/ws/encode-frame.js'
import { closeFrame } from '../../core/ws/out-frame.js'
import { type AppClose, refusalClose, wantsRefusalClose } from '../../core/ws/app-close.js'
import { restoreSession } from '../recovery/restore-session.js'
import type { SessionRecovery } from '../recovery/session-recovery.js'
import { refused, type UpgradeAccepted, type UpgradeDecision } from './upgrade-decision.js'
import type { WsCompression } from '../deflate/ws-compression.js'
import type { WsShared } from './ws-shared.js'
import type { ConnectionGate } from '../limit/connection-gate.js'
import type { AbuseLog } from '../limit/abuse-log.js'

export interface UpgradesDeps<S> {
  readonly table: ClientTable<S>
  readonly io: SocketIo<S>
  readonly options: UpgradeOptions
  /** The server's HTTP middleware and then the table's upgrade guards, composed once (`undefined` without either). */
  readonly stack: HttpStack | undefined
  readonly httpContext: HttpContext
  readonly onHttpError: (error: unknown, request: HttpRequest) => void
  /** permessage-deflate, when on and the runtime has a codec. */
  readonly compression: WsCompression | undefined
  readonly recovery: SessionRecovery<S>
  readonly registry: NamespaceRegistry
  readonly handlers: ConnectHandlers
  readonly wsShared: WsShared<S>
  readonly debug: (message: string, context: Readonly<Record<string, unknown>>) => void
  readonly timers: Timers
  /** How long a refused connection is given to close before it is cut. */
  readonly closeTimeoutMs: number
  /** The handshake rates and connections per address (the `rateLimits` option), when limited. */
  readonly gate?: ConnectionGate | undefined
  /** Where refused handshakes are counted (logged once per window). */
  readonly abuse?: AbuseLog | undefined
}

// What the middleware is given to accept an upgrade with (a status 101 without body).
const UPGRADE_ACCEPTED = errorResponse(101, 'Switching Protocols')

// The text of a refusal: its `{"error": text}`, else nothing.
const reasonOf = (res: Response): string => {
  const body = res.body as { readonly error?: unknown } | null | undefined
  return typeof body === 'object' && body !== null && typeof body.error === 'string' ? body.error : ''
}

export class Upgrades<S> {
  constructor(private readonly deps: UpgradesDeps<S>) {}

  /** The decision about client `clientId`'s upgrade request; a resume from the store waits for it. */
  decide(clientId: number, request: HttpRequest): UpgradeDecision | Promise<UpgradeDecision> {
    const decided = this.decideHere(clientId, request)
    const recovery = this.deps.recovery
    if (recovery.journal === undefined || (!(decided instanceof Promise) && decided._tag === 'Refused')) return decided
    const resume = recovery.asked(request)?.resume
    if (resume === undefined) return decided
    // Held here: resumed here, unless it is parked and the store names another holder (its
    // client resumed there meanwhile; this copy is stale and let go, and the store's is resumed).
    const here = recovery.sessions.get(resume.sid)
    if (here !== undefined && recovery.parked.get(here.clientId) !== here) return decided
    return Promise.resolve(decided).then(async (decision) => {
      if (decision._tag === 'Refused') return decision
      if (here !== undefined && !(await recovery.staleHere(resume.sid))) return decision
      const client = this.deps.table.all.get(clientId)
      // Gone while a middleware decided: takeOver destroys its socket.
      if (client === undefined) return decision
      return restoreSession(recovery, client, resume.sid, resume.lastSeq).then((resync) => (resync === undefined ? decision : { ...decision, resync }))
    })
  }

  // Everything this node can decide by itself.
  private decideHere(clientId: number, request: HttpRequest): UpgradeDecision | Promise<UpgradeDecision> {
    const { table, compression, stack } = this.deps
    if (table.draining) return refused(errorResponse(503, 'server shutting down'))
    const gate = this.deps.gate
    const limited = gate === undefined ? undefined : gate.check(request, table.all.get(clientId)?.remoteAddress)
    if (limited !== undefined) return refused(limited)
    const checked = validateUpgrade(request, this.deps.options)
    if (E.isLeft(checked)) {
      this.deps.abuse?.note('websocket handshake refused', { status: checked.left.status, reason: checked.left.reason })
      this.deps.debug('websocket handshake refused', { clientId, status: checked.left.status, reason: checked.left.reason })
      return refused(checked.left.headers.reduce((res, [name, value]) => withHeader(res, name, value), errorResponse(checked.left.status, checked.left.reason)))
    }
    let agreement: UpgradeAccepted['agreement']
    if (compression !== undefined) {
      const negotiated = compression.negotiate(request, clientId)
      if (E.isLeft(negotiated)) return refused(negotiated.left)
      agreement = negotiated.right
    }
    const accepted: UpgradeAccepted = { _tag: 'Accepted', upgrade: checked.right, agreement, headers: undefined, resync: undefined }
    if (stack === undefined) return accepted
    // The middleware sees this connection's handshake: the client data it starts with.
    const ctx: HttpContext = { ...this.deps.httpContext, handshake: this.handshakeOf(clientId) }
    return stack(request, ctx, async () => UPGRADE_ACCEPTED).then(
      (res: Response): UpgradeDecision => {
        if (res.status !== 101) {
          // A client that cannot read the status (a browser) reads it as a close code instead.
          const refusal = wantsRefusalClose(request.rawQuery) ? refusalClose(res.status, reasonOf(res)) : undefined
          return refusal === undefined ? refused(res) : { ...accepted, agreement: undefined, headers: undefined, refusal }
        }
        // Headers a middleware added to the acceptance (a cookie, say) go out with the 101.
        return res.headers.length > 0 ? { ...accepted, headers: res.headers } : accepted
      },
      (error: unknown): UpgradeDecision => {
        this.deps.onHttpError(error, request)
        return refused(internalError())
      },
    )
  }

  // What a middleware stores lands in the client's data now, while it is still an HTTP client:
  // takeOver keeps the same client object, and a resumed session merges it over its own.
  private handshakeOf(clientId: number): Handshake {
    const { table } = this.deps
    return {
      setClientData: (key, value) => void table.setData(clientId, key, value),
      getClientData: (key) => table.data(clientId, key),
    }
  }

  // A refusal as a close code: the 101, the close frame, the end of our side; the client stays
  // an HTTP client (no handlers, no session, no namespace) until its socket is gone.
  private refuseWithClose(client: ClientContext<S>, upgrade: UpgradeAccepted['upgrade'], close: AppClose): void {
    const { io, timers, closeTimeoutMs } = this.deps
    client.receiver = new RefusedUpgrade(timers, () => io.destroy(client.socket), closeTimeoutMs)
    io.write(client.socket, handshakeResponse(upgrade))
    io.end(client.socket, encodeFrameBytes(closeFrame(close.code, close.reason)))
  }

  /** The upgrade of `client` is accepted and its turn came: the 101, then the WebSocket connection with `rest` as its first bytes. */
  takeOver(client: ClientContext<S>, request: HttpRequest, decision: UpgradeAccepted, rest: Uint8Array): void {
    const { io, table, recovery, registry, compression } = this.deps
    if (io.isClosed(client.socket)) return io.destroy(client.socket)
    table.http.delete(client.id)
    if (decision.refusal !== undefined) return this.refuseWithClose(client, decision.upgrade, decision.refusal)
    // From here on the client is a WebSocket client, and its handlers' context.
    client.request = compactRequest(request)
    const { agreement, headers } = decision
    const answer: Header[] | undefined = agreement === undefined ? undefined : [['Sec-WebSocket-Extensions', agreement.header]]
    io.write(client.socket, handshakeResponse(decision.upgrade, answer === undefined ? headers : [...(headers ?? []), ...answer]))
    // Sessions number envelopes: a table with a raw-message route has none, so it has no sessions.
    const asked = recovery.asked(request)
    const resumed = asked?.resume === undefined ? undefined : recovery.resume(client, asked.resume.sid, asked.resume.lastSeq)
    this.deps.gate?.opened(client, request, client.remoteAddress)
    // The client is its own WebSocket connection (client-context.ts): no second object.
    const connection = client
    if (agreement !== undefined) connection.deflate = (compression as WsCompression).attach(connection, agreement.params)
    client.receiver = connection
    if (resumed === undefined) registry.joinNamespace(client.id)
    // A client that answers server requests (no envelopes at all with a raw-message route).
    if (!this.deps.wsShared.compiled.raw && ClientRequests.announced(request.rawQuery)) this.deps.wsShared.ops.requests.opened(client.id)
    if (asked !== undefined) recovery.open(connection, asked, resumed, decision)
    // A recovered client is the same client: its connect handlers ran when it first came.
    if (resumed === undefined) this.deps.handlers.connected(connection.ctx)
    if (rest.length > 0) connection.receive(rest)
  }
}

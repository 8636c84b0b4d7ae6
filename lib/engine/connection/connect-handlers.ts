/**
 * `ConnectHandlers`: runs a route table's `onConnect` handlers when a WebSocket client
 * arrives and its `onDisconnect` handlers when it is gone for good, the second never before
 * the first have settled (a disconnect handler may read what a connect handler stored).
 * Must not import `node:*`, Buffer or process.
 */
import type { CompiledRoutes } from '../../core/route/compiled-routes.js'
import { dispatchConnect } from '../../core/route/dispatch-connect.js'
import { dispatchDisconnect } from '../../core/route/dispatch-disconnect.js'
import type { SocketContext } from '../../core/route/socket-context.js'
import type { WsErrorReporter } from '../../core/route/ws-error-reporter.js'

export class ConnectHandlers {
  // Connect handlers still running, by client id.
  private readonly running = new Map<number, Promise<unknown>>()

  constructor(
    private readonly compiled: CompiledRoutes,
    private readonly onError: WsErrorReporter,
    /** Told first when a client is gone for good (its server requests fail). */
    private readonly gone: (clientId: number) => void = () => undefined,
  ) {}

  /** A client arrived (not one that recovered its session: its handlers ran when it first came). */
  connected(ctx: SocketContext): void {
    const clientId = ctx.clientId
    const connected = dispatchConnect(this.compiled, ctx, this.onError)
    this.running.set(clientId, connected)
    void connected.then(() => this.running.delete(clientId))
  }

  /** A client is gone for good: its disconnect handlers run (after its connect handlers). */
  disconnected(clientId: number, ctx: SocketContext): void {
    this.gone(clientId)
    const connected = this.running.get(clientId)
    if (connected === undefined) void dispatchDisconnect(this.compiled, ctx, this.onError)
    else void connected.then(() => dispatchDisconnect(this.compiled, ctx, this.onError))
  }
}

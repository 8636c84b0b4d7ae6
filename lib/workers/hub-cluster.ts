/**
 * `hubCluster`: the cluster adapter `toWorker` gives its HTTP side, so that an HTTP handler's
 * `ctx.broadcast` (and `app.http.broadcast`) reaches the WebSocket clients held by Durable
 * Object hubs. The Worker holds no socket: the engine hands every broadcast to this adapter as
 * the frame it encoded, and the adapter posts the frame's message to each hub `hubsOf` names
 * for the target (`hubBroadcastRequest`), through the binding the Worker's current request
 * brought (`use`). The posts are fire-and-forget for the handler; `settled` is what the Worker
 * gives `ctx.waitUntil`, so the runtime keeps them alive after the answer. Sends to one client,
 * cluster requests and room bookkeeping have no hub to go to: they do nothing.
 *
 * Portable: no node:* imports, no Buffer (it runs on workerd).
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Logger } from '../core/log/logger.js'
import type { ClusterAdapter, ClusterReplies, ClusterTarget } from '../engine/cluster/cluster-adapter.js'
import { broadcastOfFrame, hubBroadcastRequest, type HubTarget } from './hub-broadcast.js'
import type { DurableObjectNamespaceLike } from './workers-api.js'

/** The hubs (their names, as `hubOf` gives them) a broadcast from an HTTP handler goes to. */
export type BroadcastHubs = readonly string[] | ((target: HubTarget) => readonly string[])

/** The adapter, and what the Worker tells it per request. */
export interface HubCluster extends ClusterAdapter {
  /** The hub binding of the request being served (the Worker's `env[binding]`). */
  use(hubs: DurableObjectNamespaceLike | undefined): void
  /** Resolves when every post started so far is answered (never rejects). */
  settled(): Promise<void>
}

const NONE: ClusterReplies = { replies: [], missingNodes: [] }
const nothing = (): undefined => undefined

/**
 * The adapter for the hubs `broadcastHubs` names; without it, a broadcast from HTTP reaches no
 * hub (said once in the log, at the first one).
 *
 * @example
 * const cluster = hubCluster(['/chat'])
 * cluster.use(env.TWINPORT_HUB)
 * ctx.waitUntil(cluster.settled())
 */
export const hubCluster = (broadcastHubs: BroadcastHubs | undefined): HubCluster => {
  const hubsOf = typeof broadcastHubs === 'function' ? broadcastHubs : () => broadcastHubs ?? []
  const pending = new Set<Promise<void>>()
  let hubs: DurableObjectNamespaceLike | undefined
  let logger: Logger | undefined
  let told = false

  const post = (hub: string, request: Request): void => {
    const current = hubs
    if (current === undefined) return
    const done: Promise<void> = (async () => {
      try {
        const answer = await current.get(current.idFromName(hub)).fetch(request)
        if (!answer.ok) logger?.warning('twinport/workers: hub {hub} refused a broadcast: {status} {body}', { hub, status: answer.status, body: await answer.text() })
      } catch (error) {
        logger?.exception(error, { phase: 'hub broadcast', hub })
      }
    })().finally(() => pending.delete(done))
    pending.add(done)
  }

  return {
    nodeId: 'worker',
    attach: (host) => void (logger = host.logger),
    use: (binding) => void (hubs = binding),
    settled: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending])
    },
    publish: (frame: Uint8Array, target: ClusterTarget) => {
      const names = hubsOf(target)
      if (names.length === 0) {
        if (!told) logger?.info('twinport/workers: a broadcast from an HTTP handler reaches no hub: name them with the broadcastHubs option')
        told = true
        return
      }
      const message = broadcastOfFrame(frame)
      if (E.isLeft(message)) return void logger?.error('twinport/workers: a broadcast not sent to hubs: {why}', { why: message.left })
      if (hubs === undefined) return void logger?.error('twinport/workers: a broadcast not sent to hubs: no Durable Object binding in env')
      // A request body is read once: one request per hub.
      for (const hub of new Set(names)) post(hub, hubBroadcastRequest({ target, message: message.right }))
    },
    sendTo: nothing,
    request: async () => NONE,
    roomOpened: nothing,
    roomClosed: nothing,
    namespaceOpened: nothing,
    namespaceClosed: nothing,
    close: async () => {
      while (pending.size > 0) await Promise.allSettled([...pending])
    },
  }
}

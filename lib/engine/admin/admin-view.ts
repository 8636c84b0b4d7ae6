/**
 * `createAdminView`: what the admin page reads of one server (`ctx.admin`): this node's
 * connections by transport, rooms, metric totals, send backlog and last errors, read when asked
 * (nothing is kept for it but the error ring); and every node's, asked through the cluster's
 * server-to-server events (`tp:admin`, answered by each node with its own). Read-only: it
 * changes nothing. Must not import `node:*`, Buffer or process.
 */
import * as t from 'io-ts'
import { isRight } from 'fp-ts/lib/Either.js'
import type { AdminNode, AdminSnapshot, AdminTotals, AdminView } from '../../core/metrics/admin-snapshot.js'
import type { ErrorRing } from '../../core/metrics/error-ring.js'
import type { MetricsRegistry } from '../../core/metrics/metrics-registry.js'
import type { ServerHealth } from '../../core/metrics/server-health.js'
import type { ClusterHandle } from '../cluster/cluster-handle.js'
import type { SocketIo } from '../platform.js'
import type { ClientTable } from '../registry/client-table.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'

/** The server-to-server event each node answers with its own `AdminNode`. */
export const ADMIN_CLUSTER_EVENT = 'tp:admin'

/** How long the page's snapshot waits for the other nodes (ms). */
const CLUSTER_TIMEOUT_MS = 1500

export interface AdminViewDeps<S> {
  readonly table: ClientTable<S>
  readonly registry: NamespaceRegistry
  readonly io: SocketIo<S>
  readonly metrics: MetricsRegistry | undefined
  readonly ring: ErrorRing
  readonly health: () => ServerHealth
  readonly now: () => number
  /** `undefined` without a cluster adapter: the snapshot is this node's alone. */
  readonly cluster: ClusterHandle | undefined
}

// What another node answered, checked before it is shown: a node never trusts the wire.
const num = t.number
const RemoteNode = t.type({
  node: t.string,
  at: num,
  draining: t.boolean,
  cluster: t.keyof({ alone: null, starting: null, up: null, down: null, closed: null }),
  connections: t.type({ http: num, ws: num, sse: num }),
  rooms: t.readonlyArray(t.type({ namespace: t.string, room: t.string, members: num })),
  totals: t.union([t.undefined, t.null, t.type({ received: num, sent: num, errors: num, slowConsumers: num })]),
  sendBacklog: num,
  lastErrors: t.readonlyArray(t.type({ at: num, kind: t.keyof({ event: null, warning: null, error: null }), message: t.string })),
})

// The sum of every series of a counter (0 when the registry has none by that name).
const total = (metrics: MetricsRegistry, name: string): number => {
  const instrument = metrics.get(name)
  if (instrument === undefined || instrument.kind !== 'counter') return 0
  let sum = 0
  for (const series of instrument.all()) sum += series.value
  return sum
}

const totalsOf = (metrics: MetricsRegistry | undefined): AdminTotals | undefined =>
  metrics === undefined
    ? undefined
    : {
        received: total(metrics, 'twinport.messages.received'),
        sent: total(metrics, 'twinport.messages.sent'),
        errors: total(metrics, 'twinport.errors'),
        slowConsumers: total(metrics, 'twinport.slow_consumers'),
      }

/**
 * The admin view of one server; registers the cluster event its peers ask.
 *
 * @example
 * const view = createAdminView({ table, registry, io, metrics, ring, health, now: Date.now, cluster: undefined })
 * view.local().connections // { http: 0, ws: 0, sse: 0 }
 */
export const createAdminView = <S>(deps: AdminViewDeps<S>): AdminView => {
  const local = (): AdminNode => {
    const connections = { http: 0, ws: 0, sse: 0 }
    let sendBacklog = 0
    for (const client of deps.table.all.values()) {
      connections[client.type] += 1
      if (client.type !== 'http' && !deps.io.isClosed(client.socket)) sendBacklog += deps.io.buffered(client.socket)
    }
    const health = deps.health()
    return {
      node: health.node,
      at: deps.now(),
      draining: health.draining,
      cluster: health.cluster,
      connections,
      rooms: deps.registry.listRooms().map(({ namespace, room, members }) => ({ namespace, room, members })),
      totals: totalsOf(deps.metrics),
      sendBacklog,
      lastErrors: deps.ring.list(),
    }
  }
  const { cluster } = deps
  cluster?.on(ADMIN_CLUSTER_EVENT, () => local())
  return {
    local,
    snapshot: async (): Promise<AdminSnapshot> => {
      const self = local()
      if (cluster === undefined) return { node: self.node, nodes: [self], missingNodes: [] }
      const { replies, missingNodes } = await cluster.emit(ADMIN_CLUSTER_EVENT, undefined, { timeoutMs: CLUSTER_TIMEOUT_MS })
      const nodes: AdminNode[] = [self]
      const missing = [...missingNodes]
      for (const reply of replies) {
        const decoded = RemoteNode.decode(reply.data)
        if (isRight(decoded)) nodes.push({ ...decoded.right, totals: decoded.right.totals ?? undefined })
        else missing.push(reply.node)
      }
      return { node: self.node, nodes, missingNodes: missing }
    },
  }
}

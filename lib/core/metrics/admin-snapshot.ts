/**
 * `AdminSnapshot`: what the admin page shows, as plain JSON data: each node of the cluster with
 * its connections by transport, its rooms and their sizes, its message, error and slow-consumer
 * totals (the page turns two snapshots into rates) and its last errors. `AdminView` is the
 * read-only accessor a server hands its handlers (`ctx.admin`) to take one. Types only; pure and
 * portable: no node:* imports.
 */
import type { ClusterLinkState } from './server-health.js'

/** One room of a node, with its members on that node. */
export interface AdminRoom {
  readonly namespace: string
  readonly room: string
  readonly members: number
}

/** One recent error event or warning/error log line (the ring keeps the last ones). */
export interface AdminError {
  /** The server's clock, ms since the epoch. */
  readonly at: number
  /** `event`: an error event sent to a client; otherwise the log level. */
  readonly kind: 'event' | 'warning' | 'error'
  /** The error code (`bad_request`, …) for events; the message for log lines. */
  readonly message: string
}

/** The totals a node's metrics registry holds; absent counters count 0. */
export interface AdminTotals {
  readonly received: number
  readonly sent: number
  readonly errors: number
  readonly slowConsumers: number
}

/** One node as it sees itself. */
export interface AdminNode {
  readonly node: string
  /** The node's clock when the snapshot was taken (ms since the epoch). */
  readonly at: number
  readonly draining: boolean
  readonly cluster: ClusterLinkState
  /** Open connections by transport. */
  readonly connections: { readonly http: number; readonly ws: number; readonly sse: number }
  readonly rooms: readonly AdminRoom[]
  /** `undefined` when the server's metrics are off (`metrics: false`). */
  readonly totals: AdminTotals | undefined
  /** Bytes written to clients and not yet taken by the kernel. */
  readonly sendBacklog: number
  /** Newest last. */
  readonly lastErrors: readonly AdminError[]
}

/** Every node that answered, and the ones that did not in time. */
export interface AdminSnapshot {
  /** The node that took the snapshot. */
  readonly node: string
  readonly nodes: readonly AdminNode[]
  readonly missingNodes: readonly string[]
}

/** What a server lets its handlers read for the admin page (`ctx.admin`). */
export interface AdminView {
  /** This node alone. */
  local(): AdminNode
  /** Every node of the cluster (this one alone without a cluster adapter). */
  snapshot(): Promise<AdminSnapshot>
}

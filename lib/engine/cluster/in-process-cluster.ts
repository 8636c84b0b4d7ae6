/**
 * `inProcessCluster`: the default cluster adapter, a cluster of one. Broadcasts reach the
 * local clients only (the engine has written them already), there is no other node to ask
 * (`liveNodes` is empty, so presence tells nothing), and nothing is needed to run it: a
 * server without the `cluster` option behaves as it always has. Must not import `node:*`, Buffer or process.
 */
import type { ClusterAdapter, ClusterReplies } from './cluster-adapter.js'

const NONE: ClusterReplies = { replies: [], missingNodes: [] }
const NO_NODES: readonly string[] = []

/**
 * The cluster of one node.
 *
 * @example
 * const cluster = inProcessCluster()
 * cluster.nodeId // 'local'
 * await cluster.request({ q: 'clients' }) // { replies: [], missingNodes: [] }
 */
export const inProcessCluster = (nodeId = 'local'): ClusterAdapter => ({
  nodeId,
  attach: () => undefined,
  publish: () => undefined,
  sendTo: () => undefined,
  request: async () => NONE,
  // Alone for good: presence tells no delta or digest.
  liveNodes: () => NO_NODES,
  roomOpened: () => undefined,
  roomClosed: () => undefined,
  namespaceOpened: () => undefined,
  namespaceClosed: () => undefined,
  close: async () => undefined,
})

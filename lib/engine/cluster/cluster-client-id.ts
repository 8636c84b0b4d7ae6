/**
 * Client ids across a cluster. A client's id (`ctx.clientId`) is a number unique on its
 * node; across nodes a client is named `<nodeId>/<clientId>`, a string an application can
 * store, send to a browser, or hand to another node. Must not import `node:*`, Buffer or
 * process.
 */

/** `<nodeId>/<clientId>`: a client anywhere in the cluster. */
export type ClusterClientId = string

/**
 * The cluster-wide id of client `clientId` of node `nodeId`.
 *
 * @example
 * clusterClientId('n1', 7) // 'n1/7'
 */
export const clusterClientId = (nodeId: string, clientId: number): ClusterClientId => `${nodeId}/${clientId}`

/**
 * The node and local id of a cluster-wide id; `undefined` when it is not one.
 *
 * @example
 * parseClusterClientId('n1/7') // { node: 'n1', clientId: 7 }
 * parseClusterClientId('7') // undefined
 */
export const parseClusterClientId = (id: string): { readonly node: string; readonly clientId: number } | undefined => {
  const slash = id.lastIndexOf('/')
  if (slash <= 0) return undefined
  const digits = id.slice(slash + 1)
  if (!/^[1-9]\d{0,15}$/.test(digits)) return undefined
  const clientId = Number(digits)
  return Number.isSafeInteger(clientId) ? { node: id.slice(0, slash), clientId } : undefined
}

/**
 * A cluster of in-process nodes joined by a hub, for specs of the engine's cluster port
 * (`ClusterAdapter`) without any network: each node's adapter hands a broadcast to every
 * other node's engine and answers requests through their `answer`; a notice (`tell`) is handed
 * to their `answer` too, its value left. A node can be made
 * silent (it stops answering, as a frozen process would), and a request or a notice can be lost on its way
 * to one node or its answer made late (`fault`). With `liveness`, each node's adapter says which
 * other nodes are alive (`liveNodes`) as of the hub's last `beat()`, as a heartbeat registry
 * would: a node attached since is not known yet. Test-only and portable; the
 * Redis adapter's specs run against a real redis-server instead.
 */
import type { ClusterAdapter, ClusterHost, ClusterReply } from '../../lib/engine/cluster/cluster-adapter.js'

/**
 * What happens to a request from `from` to `to`: `lose` (it never arrives), `late` (it
 * arrives and is answered, after the asker stopped waiting), or as usual (`undefined`).
 */
export type MemoryFault = (from: string, to: string, body: unknown) => 'lose' | 'late' | undefined

export interface MemoryHub {
  /** A new node's adapter. */
  node(nodeId: string): ClusterAdapter
  /** The node stops answering requests (it still counts as alive). */
  silence(nodeId: string): void
  /** Requests from now on go through `rule` (one rule at a time; `undefined` removes it). */
  fault(rule: MemoryFault | undefined): void
  /** Every publish, in order, as `<node> <namespace>/<room>`. */
  readonly published: string[]
  /** Every notice (`tell`), in order, with the node it came from. */
  readonly told: { readonly from: string; readonly body: unknown }[]
  /** Rooms each node told the hub it has members in. */
  readonly rooms: Map<string, Set<string>>
  /** With `liveness`: a heartbeat, after which every node knows the nodes attached now. */
  beat(): void
}

/** `tell: false`: adapters without `tell` (as a third-party adapter may be): the engine falls back on `request`. */
export const memoryHub = (options: { readonly tell?: boolean; readonly liveness?: boolean } = {}): MemoryHub => {
  const hosts = new Map<string, ClusterHost>()
  // The nodes alive at the last beat (with `liveness`).
  let live: readonly string[] = []
  const silent = new Set<string>()
  const published: string[] = []
  const told: { from: string; body: unknown }[] = []
  const rooms = new Map<string, Set<string>>()
  let fault: MemoryFault | undefined
  const node = (nodeId: string): ClusterAdapter => {
    const mine = new Set<string>()
    rooms.set(nodeId, mine)
    // A notice: handed to every other node's `answer` unless lost (a silent node takes it: it only stops answering).
    const tell = (body: unknown): void => {
      told.push({ from: nodeId, body })
      for (const [id, host] of hosts) if (id !== nodeId && fault?.(nodeId, id, body) !== 'lose') void host.answer(JSON.parse(JSON.stringify(body)), nodeId)
    }
    return {
      nodeId,
      ...(options.tell === false ? {} : { tell }),
      ...(options.liveness === true ? { liveNodes: () => live.filter((id) => id !== nodeId && hosts.has(id)) } : {}),
      attach: (host) => void hosts.set(nodeId, host),
      publish: (frame, target, envelope) => {
        published.push(`${nodeId} ${target.namespace ?? ''}/${target.room ?? ''}`)
        for (const [id, host] of hosts) if (id !== nodeId) host.deliver(frame, target, envelope)
      },
      sendTo: (to, clientId, frame, envelope) => void hosts.get(to)?.deliverTo(clientId, frame, envelope),
      request: async (body, options) => {
        const asked = [...hosts.keys()].filter((id) => id !== nodeId && (options?.node === undefined || options.node === id))
        const replies: ClusterReply[] = []
        const missingNodes: string[] = []
        for (const id of asked) {
          const befalls = fault?.(nodeId, id, body)
          if (befalls === 'lose') missingNodes.push(id)
          else if (befalls === 'late') {
            missingNodes.push(id)
            void (hosts.get(id) as ClusterHost).answer(JSON.parse(JSON.stringify(body)), nodeId)
          } else if (silent.has(id)) missingNodes.push(id)
          else replies.push({ node: id, body: await (hosts.get(id) as ClusterHost).answer(JSON.parse(JSON.stringify(body)), nodeId) })
        }
        return { replies, missingNodes }
      },
      roomOpened: (ns, room) => void mine.add(`${ns} ${room}`),
      roomClosed: (ns, room) => void mine.delete(`${ns} ${room}`),
      namespaceOpened: () => undefined,
      namespaceClosed: () => undefined,
      close: async () => void hosts.delete(nodeId),
    }
  }
  const beat = (): void => void (live = [...hosts.keys()])
  return { node, silence: (id) => void silent.add(id), fault: (rule) => void (fault = rule), published, told, rooms, beat }
}

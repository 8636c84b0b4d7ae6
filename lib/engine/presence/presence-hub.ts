/**
 * `PresenceHub`: a server's presence topics (`server.presence(topic)`), and how they move
 * between nodes. A topic's deltas go to every other node as a cluster event (`tp:presence`)
 * told, not asked (the adapter's `tell`: one plain message, no answer tracked), in the order
 * they were made; a node that opens a topic, or finds a gap in another node's deltas, asks
 * for whole states (the same event, `sync`, a request: it needs the answers).
 * Every `PRESENCE_DIGEST_MS` each node also tells its digest (`digest`: its epoch and the
 * clock of each topic it changed), so a copy left behind by a lost message catches up even
 * when no later delta comes (presence-topic.ts): the digest is what makes an untracked delta
 * safe to lose (docs/decisions.md "Presence deltas are told"). When the adapter says a node died
 * (`ClusterHost.nodeLeft`, within its heartbeat bound), its entries leave every topic.
 * A node that knows no other (the adapter's `liveNodes` is empty and no node's presence message
 * came since) tells nothing: its clock still moves, so a node that joins later catches up by
 * its fetch (`sync`, which also makes this node tell again) or by the digests that start once
 * the heartbeat shows it (docs/decisions.md "Presence alone tells nothing").
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { Logger } from '../../core/log/logger.js'
import type { NodeSnapshot, PresenceDelta } from '../../core/presence/presence-state.js'
import type { TimerId, Timers } from '../platform.js'
import type { ClusterAdapter } from '../cluster/cluster-adapter.js'
import { EventAnswer } from '../cluster/cluster-request.js'
import type { Presence, PresenceDiff, PresenceOptions } from '../../core/presence/presence.js'
import { PresenceTopic } from './presence-topic.js'
import { readPresenceMessage } from './read-presence-message.js'

/** The cluster event presence travels as (a server-to-server event name no application uses). */
export const PRESENCE_EVENT = 'tp:presence'

/** How often a node sends its presence digest (ms): the bound on how long a lost change stays unseen. */
export const PRESENCE_DIGEST_MS = 1_000

// A node's whole state, as it answers `sync` (rare: a fetch); the per-change messages are read by hand (read-presence-message.ts).
const Clock = t.type({ epoch: t.number, n: t.number })
const Entry = t.type({ key: t.string, conn: t.number, meta: t.unknown })
const Snapshot = t.type({ clock: Clock, entries: t.array(Entry) })

/** What the hub needs of the engine. */
export interface PresenceHubDeps {
  readonly adapter: ClusterAdapter
  /** Registers the handler of a server-to-server event (`server.cluster.on`). */
  readonly on: (event: string, handler: (data: unknown, from: string) => unknown) => void
  readonly isClient: (clientId: number) => boolean
  /** Sends an event to this node's members of a room (namespace `/`). */
  readonly sendToRoom: (room: string, event: string, data: unknown) => void
  readonly timers: Timers
  readonly logger: Logger
}

export class PresenceHub {
  private readonly topics = new Map<string, PresenceTopic>()
  private readonly epoch: number
  private digests: TimerId | undefined = undefined
  /** Nodes whose presence messages came (until they leave): this node is not alone while any did. */
  private readonly heard = new Set<string>()
  private closed = false

  constructor(private readonly deps: PresenceHubDeps) {
    this.epoch = deps.timers.now()
    deps.on(PRESENCE_EVENT, (data, from) => this.received(data, from))
  }

  /** The topic's presence, opened on the first call (which takes the options). */
  topic(name: string, options?: PresenceOptions): Presence {
    return this.open(name, options)
  }

  /** A node died or left the cluster: its entries leave every topic. */
  nodeLeft(node: string): void {
    this.heard.delete(node)
    for (const topic of this.topics.values()) topic.dropNode(node)
  }

  /** A client of this node is gone for good: it leaves every topic. */
  clientGone(clientId: number): void {
    for (const topic of this.topics.values()) topic.clientGone(clientId)
  }

  /** The server is closing: no more digests, fetches or retries. */
  close(): void {
    this.closed = true
    if (this.digests !== undefined) this.deps.timers.clearInterval(this.digests)
    this.digests = undefined
    for (const topic of this.topics.values()) topic.close()
  }

  // Digests start with presence's first use here (a topic opened, a message from another node).
  private startDigests(): void {
    if (this.digests !== undefined || this.closed) return
    this.digests = this.deps.timers.setInterval(() => this.sendDigest(), PRESENCE_DIGEST_MS)
  }

  // Whether no other node would read a delta or a digest: the adapter knows no live node and
  // none has spoken (an adapter without `liveNodes` cannot tell: never alone).
  private alone(): boolean {
    const live = this.deps.adapter.liveNodes
    return live !== undefined && this.heard.size === 0 && live().length === 0
  }

  private sendDigest(): void {
    if (this.alone()) return
    const topics: [string, number][] = []
    for (const [name, topic] of this.topics) if (topic.clock.n > 0) topics.push([name, topic.clock.n])
    this.tell({ t: 'digest', epoch: this.epoch, topics })
  }

  // A delta or a digest to every other node, answered by nobody (an adapter without `tell`:
  // a request whose answers are left).
  private tell(data: unknown): void {
    const { adapter } = this.deps
    const body = { q: 'event', event: PRESENCE_EVENT, data }
    if (adapter.tell !== undefined) adapter.tell(body)
    else void adapter.request(body)
  }

  private open(name: string, options?: PresenceOptions): PresenceTopic {
    const known = this.topics.get(name)
    if (known !== undefined) return known
    const { adapter, timers, logger } = this.deps
    this.startDigests()
    const event = options?.event
    const topic = new PresenceTopic(
      name,
      {
        nodeId: adapter.nodeId,
        isClient: this.deps.isClient,
        later: (run) => timers.afterIo(run),
        publish: (topicName, delta) => {
          if (!this.alone()) this.tell({ t: 'delta', topic: topicName, ...delta })
        },
        fetch: (topicName, node, timeoutMs) => this.fetch(topicName, node, timeoutMs),
        toRoom: event === undefined ? undefined : (room: string, diff: PresenceDiff) => this.deps.sendToRoom(room, event, diff),
        onError: (error) => logger.exception(error, { presence: name }),
        after: (ms, run) => {
          const id = timers.setTimeout(run, ms)
          return () => timers.clearTimeout(id)
        },
      },
      this.epoch,
    )
    this.topics.set(name, topic)
    // What the other nodes have already: the view is complete once they answered.
    void topic.sync()
    return topic
  }

  private async fetch(topic: string, node: string | undefined, timeoutMs: number | undefined): Promise<{ snapshots: { node: string; snapshot: NodeSnapshot }[]; missingNodes: readonly string[] }> {
    const options = { ...(node === undefined ? {} : { node }), ...(timeoutMs === undefined ? {} : { timeoutMs }) }
    const { replies, missingNodes } = await this.deps.adapter.request({ q: 'event', event: PRESENCE_EVENT, data: { t: 'sync', topic } }, options)
    const snapshots: { node: string; snapshot: NodeSnapshot }[] = []
    const missing = [...missingNodes]
    for (const reply of replies) {
      const answer = EventAnswer.decode(reply.body)
      const snapshot = E.isRight(answer) && 'data' in answer.right ? Snapshot.decode(answer.right.data) : undefined
      if (snapshot !== undefined && E.isRight(snapshot)) snapshots.push({ node: reply.node, snapshot: snapshot.right })
      else missing.push(reply.node)
    }
    return { snapshots, missingNodes: missing }
  }

  // Another node's presence message: a delta applied in order, or a request for this node's state.
  private received(data: unknown, from: string): unknown {
    const decoded = readPresenceMessage(data)
    if (E.isLeft(decoded)) {
      this.deps.logger.warning('presence: dropped a message from node {node} that is not one', { node: from })
      return undefined
    }
    const message = decoded.right
    this.heard.add(from)
    if (message.t === 'digest') return this.digestFrom(from, message.epoch, message.topics)
    const topic = this.open(message.topic)
    if (message.t === 'sync') return topic.snapshot()
    const delta: PresenceDelta = message
    topic.deltaFrom(from, delta)
    return true
  }

  // Another node's digest: each topic's copy of that node checked against the clock it announces.
  private digestFrom(from: string, epoch: number, topics: readonly (readonly [string, number])[]): true {
    this.startDigests()
    const announced = new Map(topics)
    for (const name of announced.keys()) this.open(name)
    for (const [name, topic] of this.topics) topic.clockFrom(from, { epoch, n: announced.get(name) ?? 0 })
    return true
  }
}

/**
 * Node-to-node messages of the Redis adapter: each node listens to a channel of its own
 * (frames for one of its clients, requests for it alone, replies to its requests) and to the
 * control channel (requests to every node). Requests (`clientsInRoom`, `count`, remote
 * client operations, server-to-server events) wait only for the nodes alive when asked
 * (liveness.ts) and settle within their time bound (request-tracker.ts); answers come from
 * the engine (`ClusterHost.answer`). A notice (`tell`: presence's deltas and digests) is a
 * request with id 0 on the control channel: every node hands it to the engine and answers
 * nothing, and the sender tracks nothing. Imports the engine as types only, no `node:*`.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { ClusterMessage } from '../core/cluster/cluster-message.js'
import { UNSEQUENCED } from '../core/cluster/cluster-message.js'
import { decodeClusterMessage } from '../core/cluster/decode-cluster-message.js'
import { encodeClusterMessage } from '../core/cluster/encode-cluster-message.js'
import type { ClusterReplies } from '../engine/cluster/cluster-adapter.js'
import { type AdapterContext, warnInvalid } from './adapter-context.js'
import type { Liveness } from './liveness.js'
import { controlChannel, nodeChannel } from './redis-keys.js'
import { RequestTracker } from './request-tracker.js'

type Request = Extract<ClusterMessage, { _tag: 'Request' }>

/** The request id of a notice: a request nobody answers (the tracker never gives out 0). */
export const NOTICE_ID = 0

const parseJson = (text: string): E.Either<undefined, unknown> => {
  try {
    return E.right(JSON.parse(text))
  } catch {
    return E.left(undefined)
  }
}

export class NodeChannel {
  private readonly requests: RequestTracker
  /** This node's channel. */
  private readonly mine: string
  private readonly control: string
  private readonly counts = { received: 0, invalid: 0 }

  constructor(
    private readonly ctx: AdapterContext,
    private readonly requestTimeoutMs: number,
    private readonly liveness: Pick<Liveness, 'liveNodes' | 'isLive'>,
  ) {
    this.requests = new RequestTracker(ctx.host.timers)
    this.mine = nodeChannel(ctx.prefix, ctx.nodeId)
    this.control = controlChannel(ctx.prefix)
  }

  /** Direct frames written to local clients, and foreign or corrupt messages dropped. */
  stats(): { readonly received: number; readonly invalid: number } {
    return { ...this.counts }
  }

  /** Listens to this node's channel and the control channel (once, at start). */
  async subscribe(): Promise<void> {
    const { port, server } = this.ctx
    await port.subscribe(this.mine, server.sharded, this.onNodeMessage)
    await port.subscribe(this.control, server.sharded, this.onControlMessage)
  }

  /** A frame for client `clientId` of another node (dropped while Redis is not up). */
  sendTo(node: string, clientId: number, frame: Uint8Array, envelope: boolean): void {
    if (this.ctx.link().state !== 'up') return
    const { nodeId } = this.ctx
    const encoded = encodeClusterMessage({ _tag: 'Direct', origin: nodeId, seq: UNSEQUENCED, node, clientId, ...(envelope ? { envelope: true as const } : {}), frame })
    if (E.isLeft(encoded)) return this.ctx.host.logger.warning('cluster: a message for {node} cannot be sent: {reason}', { node, reason: encoded.left.reason })
    void this.publishPlain(nodeChannel(this.ctx.prefix, node), encoded.right).catch(() => undefined)
  }

  /** Asks every live node (or `node`); resolves with the answers in time and the nodes missing. Never rejects. */
  async request(body: unknown, opts?: { readonly node?: string; readonly timeoutMs?: number }): Promise<ClusterReplies> {
    const expected = opts?.node === undefined ? this.liveness.liveNodes() : [opts.node]
    if (expected.length === 0) return { replies: [], missingNodes: [] }
    if (this.ctx.link().state !== 'up' || (opts?.node !== undefined && !this.liveness.isLive(opts.node))) return { replies: [], missingNodes: expected }
    const { id, answers } = this.requests.open(expected, opts?.timeoutMs ?? this.requestTimeoutMs)
    const encoded = encodeClusterMessage({ _tag: 'Request', origin: this.ctx.nodeId, seq: UNSEQUENCED, requestId: id, node: opts?.node ?? '', body: JSON.stringify(body) })
    if (E.isLeft(encoded)) this.requests.settle(id)
    else this.publishPlain(opts?.node === undefined ? this.control : nodeChannel(this.ctx.prefix, opts.node), encoded.right).catch(() => this.requests.settle(id))
    return answers
  }

  /**
   * A notice to every other node (`ClusterAdapter.tell`): one PUBLISH on the control channel,
   * nothing tracked, no answer. Dropped while Redis is not up, and lost when the PUBLISH is.
   */
  tell(body: unknown): void {
    if (this.ctx.link().state !== 'up') return
    const encoded = encodeClusterMessage({ _tag: 'Request', origin: this.ctx.nodeId, seq: UNSEQUENCED, requestId: NOTICE_ID, node: '', body: JSON.stringify(body) })
    if (E.isLeft(encoded)) return this.ctx.host.logger.warning('cluster: a notice cannot be sent: {reason}', { reason: encoded.left.reason })
    // Nobody waits for it: no 5 s timer of node-redis' own (a lost link rejects it anyway).
    void this.ctx.port.command([this.ctx.server.sharded ? 'SPUBLISH' : 'PUBLISH', this.control, encoded.right], { key: this.control, timer: false }).catch(() => undefined)
  }

  /** The node is closing: every request settles with what it has. */
  close(): void {
    this.requests.settleAll()
  }

  private publishPlain(channel: string, bytes: Uint8Array): Promise<unknown> {
    return this.ctx.port.command([this.ctx.server.sharded ? 'SPUBLISH' : 'PUBLISH', channel, bytes], { key: channel })
  }

  private invalid(reason: string, channel: string): void {
    this.counts.invalid += 1
    warnInvalid(this.ctx, reason, channel)
  }

  private answer(m: Request, channel: string): void {
    const body = parseJson(m.body)
    if (E.isLeft(body)) return this.invalid('a request whose body is not JSON', channel)
    const { nodeId, prefix } = this.ctx
    void this.ctx.host.answer(body.right, m.origin).then((result) => {
      if (result === undefined || m.requestId === NOTICE_ID || this.ctx.link().state === 'closed') return
      const reply = encodeClusterMessage({ _tag: 'Reply', origin: nodeId, seq: UNSEQUENCED, requestId: m.requestId, node: m.origin, body: JSON.stringify(result) })
      if (E.isRight(reply)) void this.publishPlain(nodeChannel(prefix, m.origin), reply.right).catch(() => undefined)
    })
  }

  private readonly onNodeMessage = (bytes: Uint8Array): void => {
    const decoded = decodeClusterMessage(bytes)
    if (E.isLeft(decoded)) return this.invalid(decoded.left.reason, this.mine)
    const m = decoded.right
    if (m._tag === 'Broadcast' || m.node !== this.ctx.nodeId) return this.invalid('a message for another node', this.mine)
    if (m._tag === 'Direct') {
      if (this.ctx.host.deliverTo(m.clientId, m.frame, m.envelope === true)) this.counts.received += 1
    } else if (m._tag === 'Request') this.answer(m, this.mine)
    else {
      const body = parseJson(m.body)
      if (E.isLeft(body)) return this.invalid('a reply whose body is not JSON', this.mine)
      this.requests.reply(m.requestId, m.origin, body.right)
    }
  }

  private readonly onControlMessage = (bytes: Uint8Array): void => {
    const decoded = decodeClusterMessage(bytes)
    if (E.isLeft(decoded)) return this.invalid(decoded.left.reason, this.control)
    const m = decoded.right
    if (m._tag !== 'Request' || m.node !== '') return this.invalid('not a request to every node', this.control)
    if (m.origin !== this.ctx.nodeId) this.answer(m, this.control)
  }
}

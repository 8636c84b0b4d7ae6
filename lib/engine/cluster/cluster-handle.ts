/**
 * `server.cluster`: the cluster-wide operations of a running server. Queries ask this node
 * and the others through the cluster adapter, wait at most a time bound, and say which live
 * nodes did not answer (`missingNodes`) instead of failing or waiting for nodes that are
 * gone. Also the other side: how this node answers the others' requests. Must not import
 * `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type * as t from 'io-ts'
import type { Logger } from '../../core/log/logger.js'
import type { RawMessage } from '../../core/route/raw-message.js'
import type { DisconnectOptions } from '../../core/route/socket-context.js'
import { type AppClose, appClose } from '../../core/ws/app-close.js'
import { checkedClose } from '../checked-close.js'
import type { ClusterAdapter, ClusterReplies, ClusterTarget } from './cluster-adapter.js'
import { type ClusterClientId, clusterClientId, parseClusterClientId } from './cluster-client-id.js'
import { ClientsAnswer, ClusterRequest, CountAnswer, EventAnswer, FoundAnswer } from './cluster-request.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import type { Instrumentation } from '../instrumentation/instrumentation.js'
import { type TraceContext, traceContextOf } from '../../core/trace/trace-context.js'

/** The time bound of one query (the adapter's default when absent), and the caller's trace. */
export interface ClusterQueryOptions {
  readonly timeoutMs?: number
  /**
   * The trace the query belongs to (a handler's `req.trace` / `ctx.trace`): with a tracing
   * `instrumentation`, the query's span is its child, and the nodes asked continue it.
   */
  readonly trace?: TraceContext
}

/** What a query found, and the live nodes that did not answer in time. */
export type ClusterResult<A> = A & { readonly missingNodes: readonly string[] }

/**
 * A server-to-server event handler: its value (JSON data) is the sender's acknowledgement.
 * `trace` is the span answering it, when the server traces (its parent: the sender's query).
 */
export type ClusterEventHandler = (data: unknown, fromNode: string, trace?: TraceContext) => unknown

/** One node's acknowledgement of a server-to-server event. */
export interface ClusterEventReply {
  readonly node: string
  /** The handler's value; absent when `error` says why there is none. */
  readonly data?: unknown
  /** `no_handler`, `handler_error` or `unserializable_reply`. */
  readonly error?: string
}

/** The cluster-wide operations of a running server (`server.cluster`). */
export interface ClusterHandle {
  /** This node's id (`'local'` with the default in-process adapter). */
  readonly nodeId: string
  /** The cluster-wide id (`<nodeId>/<clientId>`) of a client of this node. */
  idOf(clientId: number): ClusterClientId
  /** Sends an event to a client of any node; false when the id is not one (or a local client is gone). */
  send(id: ClusterClientId, event: string, data?: unknown): boolean
  /** Sends a message without envelope to a client of any node. */
  sendRaw(id: ClusterClientId, message: RawMessage): boolean
  /** The WebSocket clients of a target (every client when it names none) on every node. */
  clients(target?: ClusterTarget, options?: ClusterQueryOptions): Promise<ClusterResult<{ readonly clients: readonly ClusterClientId[] }>>
  /** The clients of a room on every node (namespace `/` by default). */
  clientsInRoom(room: string, namespace?: string, options?: ClusterQueryOptions): Promise<ClusterResult<{ readonly clients: readonly ClusterClientId[] }>>
  /** How many WebSocket clients a target has on every node. */
  count(target?: ClusterTarget, options?: ClusterQueryOptions): Promise<ClusterResult<{ readonly count: number }>>
  /**
   * Closes a client of any node (1000, or a kick: `code` 4000–4999 and `reason`, checked at
   * once: a bad one is a `RangeError` thrown here); `found` says whether its node had it.
   */
  disconnectClient(id: ClusterClientId, options?: ClusterQueryOptions & DisconnectOptions): Promise<ClusterResult<{ readonly found: boolean }>>
  /** Puts a client of any node in a room. */
  joinRoom(id: ClusterClientId, room: string, namespace?: string, options?: ClusterQueryOptions): Promise<ClusterResult<{ readonly found: boolean }>>
  /** Takes a client of any node out of a room. */
  leaveRoom(id: ClusterClientId, room: string, namespace?: string, options?: ClusterQueryOptions): Promise<ClusterResult<{ readonly found: boolean }>>
  /** Sends a server-to-server event to every other node and collects their handlers' values. */
  emit(event: string, data?: unknown, options?: ClusterQueryOptions): Promise<ClusterResult<{ readonly replies: readonly ClusterEventReply[] }>>
  /** Handles a server-to-server event from other nodes (one handler per event; a second replaces the first). */
  on(event: string, handler: ClusterEventHandler): void
}

/** What the handle needs of the engine. */
export interface ClusterHandleDeps {
  readonly adapter: ClusterAdapter
  readonly registry: NamespaceRegistry
  /** The ids of the WebSocket clients of this node. */
  readonly localClients: () => Iterable<number>
  /** Writes to a local client; `text` is the envelope a frame holds (numbered for sessions). */
  readonly sendFrame: (clientId: number, frame: Uint8Array, text: string | undefined) => boolean
  readonly eventFrame: (event: string, data: unknown) => { readonly frame: Uint8Array; readonly text: string }
  readonly rawFrame: (message: RawMessage) => Uint8Array
  /** Closes a local WebSocket client (1000, or the kick's close); false when there is none. */
  readonly disconnect: (clientId: number, close: AppClose | undefined) => boolean
  /** Puts a local WebSocket client in a room; false when there is none. */
  readonly join: (clientId: number, room: string, namespace: string | undefined) => boolean
  readonly leave: (clientId: number, room: string, namespace: string | undefined) => boolean
  /** Hands what an event-stream client posted to another node to the stream of this node that holds session `sid`; false when none does. */
  readonly post: (sid: string, text: string) => boolean
  readonly logger: Logger
  /** Where queries and answers are reported (a span each, with a tracer); none by default. */
  readonly instrumentation?: Instrumentation
}

export interface ClusterSide {
  readonly handle: ClusterHandle
  /** Answers another node's request (the adapter's `ClusterHost.answer`). */
  answer(body: unknown, from: string): Promise<unknown>
}

// A reply that does not match what was asked counts as no reply: the node is reported missing.
const collect = <A>(replies: ClusterReplies, codec: t.Type<A, unknown, unknown>, logger: Logger): { values: { node: string; value: A }[]; missing: string[] } => {
  const values: { node: string; value: A }[] = []
  const missing = [...replies.missingNodes]
  for (const reply of replies.replies) {
    const decoded = codec.decode(reply.body)
    if (E.isRight(decoded)) values.push({ node: reply.node, value: decoded.right })
    else {
      logger.warning('cluster: node {node} sent an answer that does not match the request; counted as missing', { node: reply.node })
      missing.push(reply.node)
    }
  }
  return { values, missing }
}

/**
 * Builds `server.cluster` and the answering side over an adapter.
 *
 * @example
 * // As createEngine builds it, with the engine's own delivery and rooms as sendFrame, eventFrame, rawFrame, disconnect, join and leave:
 * const registry = createNamespaceRegistry()
 * registry.joinNamespace(1)
 * registry.joinRoom(1, 'lobby')
 * const { handle } = createClusterHandle({ adapter: inProcessCluster(), registry, localClients: () => [1], sendFrame, eventFrame, rawFrame, disconnect, join, leave, logger })
 * await handle.clientsInRoom('lobby') // { clients: ['local/1'], missingNodes: [] }
 */
export const createClusterHandle = (deps: ClusterHandleDeps): ClusterSide => {
  const { adapter, registry, logger } = deps
  const self = adapter.nodeId
  const handlers = new Map<string, ClusterEventHandler>()
  const instrumentation = deps.instrumentation

  // One query to the adapter; with a tracer, in a span whose context travels in the body
  // (`traceparent`, `tracestate`: JSON the adapter carries as it is, across Redis too).
  const ask = (body: ClusterRequest, options: ClusterQueryOptions | undefined, node?: string): Promise<ClusterReplies> => {
    const bound = { ...(options?.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }), ...(node === undefined ? {} : { node }) }
    if (instrumentation === undefined || !instrumentation.tracing) return adapter.request(body, bound)
    const started = instrumentation.clusterRequestStarted(body.q === 'event' ? `event ${body.event}` : body.q, options?.trace)
    const trace = instrumentation.traceOf(started)
    const carried = trace === undefined ? body : { ...body, traceparent: trace.traceparent, ...(trace.tracestate === undefined ? {} : { tracestate: trace.tracestate }) }
    return adapter.request(carried, bound).then((replies) => {
      instrumentation.clusterRequestEnded(replies.replies.length, replies.missingNodes.length, started)
      return replies
    })
  }

  const localOf = (target: ClusterTarget | undefined): Iterable<number> => {
    if (target?.room !== undefined) return registry.roomMembers(target.room, target.namespace) ?? []
    if (target?.namespace !== undefined) return registry.namespaceMembers(target.namespace) ?? []
    return deps.localClients()
  }
  const countOf = (target: ClusterTarget | undefined): number => {
    let n = 0
    for (const _ of localOf(target)) n += 1
    return n
  }
  const targetOf = (target: ClusterTarget | undefined): ClusterTarget => ({
    ...(target?.namespace === undefined ? {} : { namespace: target.namespace }),
    ...(target?.room === undefined ? {} : { room: target.room }),
  })

  const clients: ClusterHandle['clients'] = async (target, options) => {
    const local = [...localOf(target)].map((id) => clusterClientId(self, id))
    const { values, missing } = collect(await ask({ q: 'clients', ...targetOf(target) }, options), ClientsAnswer, logger)
    return { clients: [...local, ...values.flatMap((v) => v.value)], missingNodes: missing }
  }

  // A remote client's node alone is asked; a local client is handled here.
  const onClient = async (
    id: ClusterClientId,
    local: (clientId: number) => boolean,
    body: (clientId: number) => ClusterRequest,
    options: ClusterQueryOptions | undefined,
  ): Promise<ClusterResult<{ readonly found: boolean }>> => {
    const parsed = parseClusterClientId(id)
    if (parsed === undefined) return { found: false, missingNodes: [] }
    if (parsed.node === self) return { found: local(parsed.clientId), missingNodes: [] }
    const { values, missing } = collect(await ask(body(parsed.clientId), options, parsed.node), FoundAnswer, logger)
    return { found: values.some((v) => v.value), missingNodes: missing }
  }

  const sendTo = (id: ClusterClientId, encode: () => { readonly frame: Uint8Array; readonly text: string | undefined }): boolean => {
    const parsed = parseClusterClientId(id)
    if (parsed === undefined) return false
    const { frame, text } = encode()
    if (parsed.node === self) return deps.sendFrame(parsed.clientId, frame, text)
    adapter.sendTo(parsed.node, parsed.clientId, frame, text !== undefined)
    return true
  }

  const handle: ClusterHandle = {
    nodeId: self,
    idOf: (clientId) => clusterClientId(self, clientId),
    send: (id, event, data) => sendTo(id, () => deps.eventFrame(event, data)),
    sendRaw: (id, message) => sendTo(id, () => ({ frame: deps.rawFrame(message), text: undefined })),
    clients,
    clientsInRoom: (room, namespace, options) => clients({ room, ...(namespace === undefined ? {} : { namespace }) }, options),
    count: async (target, options) => {
      const { values, missing } = collect(await ask({ q: 'count', ...targetOf(target) }, options), CountAnswer, logger)
      return { count: values.reduce((sum, v) => sum + v.value, countOf(target)), missingNodes: missing }
    },
    disconnectClient: (id, options) => {
      const close = checkedClose(options)
      return onClient(id, (clientId) => deps.disconnect(clientId, close), (clientId) => ({ q: 'disconnect', clientId, ...close }), options)
    },
    joinRoom: (id, room, namespace, options) =>
      onClient(id, (clientId) => deps.join(clientId, room, namespace), (clientId) => ({ q: 'join', clientId, room, namespace }), options),
    leaveRoom: (id, room, namespace, options) =>
      onClient(id, (clientId) => deps.leave(clientId, room, namespace), (clientId) => ({ q: 'leave', clientId, room, namespace }), options),
    emit: async (event, data, options) => {
      const { values, missing } = collect(await ask({ q: 'event', event, data }, options), EventAnswer, logger)
      return { replies: values.map((v) => ({ node: v.node, ...v.value })), missingNodes: missing }
    },
    on: (event, handler) => void handlers.set(event, handler),
  }

  const runHandler = async (event: string, data: unknown, from: string, trace: TraceContext | undefined): Promise<EventAnswer> => {
    const handler = handlers.get(event)
    if (handler === undefined) return { error: 'no_handler' }
    let value: unknown
    try {
      value = await (trace === undefined ? handler(data, from) : handler(data, from, trace))
    } catch (error) {
      logger.exception(error, { clusterEvent: event, fromNode: from })
      return { error: 'handler_error' }
    }
    try {
      JSON.stringify(value)
    } catch {
      return { error: 'unserializable_reply' }
    }
    return { data: value }
  }

  // Another node's request, in a span continuing the trace it carried when the server traces.
  const answer = async (body: unknown, from: string): Promise<unknown> => {
    const decoded = ClusterRequest.decode(body)
    if (E.isLeft(decoded)) {
      logger.warning('cluster: dropped a request from node {node} that is not one', { node: from })
      return undefined
    }
    const request = decoded.right
    if (instrumentation === undefined || !instrumentation.tracing) return answerNow(request, from, undefined)
    const carried = body as { readonly traceparent?: unknown; readonly tracestate?: unknown }
    const started = instrumentation.clusterAnswerStarted(request.q === 'event' ? `event ${request.event}` : request.q, from, traceContextOf(carried.traceparent, carried.tracestate))
    const result = await answerNow(request, from, instrumentation.traceOf(started))
    const error = request.q === 'event' && typeof result === 'object' && result !== null && 'error' in result ? String((result as { error: unknown }).error) : undefined
    instrumentation.clusterAnswerEnded(error, started)
    return result
  }

  const answerNow = async (request: ClusterRequest, from: string, trace: TraceContext | undefined): Promise<unknown> => {
    switch (request.q) {
      case 'clients':
        return [...localOf(request)].map((id) => clusterClientId(self, id))
      case 'count':
        return countOf(request)
      case 'disconnect': {
        // A close that does not check is no close asked for: the node answers it had nothing to do.
        const close = request.code === undefined ? undefined : appClose(request.code, request.reason)
        if (close !== undefined && E.isLeft(close)) return false
        return deps.disconnect(request.clientId, close?.right)
      }
      case 'join':
        return deps.join(request.clientId, request.room, request.namespace)
      case 'leave':
        return deps.leave(request.clientId, request.room, request.namespace)
      case 'event':
        return runHandler(request.event, request.data, from, trace)
      case 'post':
        return deps.post(request.sid, request.text)
    }
  }

  return { handle, answer }
}

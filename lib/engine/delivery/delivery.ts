/**
 * Delivery of frames to WebSocket clients: one client, or the receivers of a broadcast
 * (everyone, a namespace, or a room), each frame encoded once by the caller and the same
 * bytes written to every receiver.
 *
 * The slow-consumer rule (DESIGN §5, docs/decisions.md "Slow consumers"): a client is slow
 * when the bytes waiting for it, not counting the largest frame queued since its backlog
 * was last empty, are past `maxSendBuffer`. So a client that reads at a normal pace while
 * a message near the message limit drains is never dropped because a ping, a pong or
 * another event joined the queue behind it, and memory per client stays bounded by
 * `maxSendBuffer` plus two of the largest frames. A slow client is told why (close 1008, queued behind its
 * backlog), gets nothing more, and is dropped when it has not read up by the close time-out.
 *
 * A connection that negotiated permessage-deflate has its frames pass through its own
 * ordered queue first (`Outlet.deflate`, lib/engine/deflate/ws-deflate.ts), which compresses and then
 * admits them here; a broadcast tells the queue so, and its compression may be shared.
 *
 * A connection whose client reads batches (docs/protocol.md, "Batches") gets its numbered
 * envelopes of one I/O turn in one message: they wait in its outbox, in the order numbered,
 * and leave together at the end of the turn (`afterIo`), separated by RS, split where a batch
 * would pass the byte limit the client announced.
 *
 * A Server-Sent Events connection (`Outlet.eventStream`) is a receiver like the others: a
 * broadcast's event (`data:` the envelope text, or the raw message's text) is encoded once per
 * framing (chunked or until close) and the same bytes are written to every such receiver,
 * under the same slow-consumer rule; a receiver with a session gets its own numbered event
 * (`id:` its session cursor). Binary messages have no event-stream form and skip them.
 *
 * A broadcast to more than `BROADCAST_SLICE` receivers is written a slice per I/O turn
 * (`BroadcastSlices`, broadcast-slices.ts; a slice also ends past `BROADCAST_SLICE_MS` of `now`), and so is every broadcast while one is still
 * being delivered, in order. What is written to one client meanwhile (a reply, `send`) first
 * catches it up on the queued broadcasts that target it and have not reached it, so each
 * client still gets its messages in the order they were sent.
 * Where the runtime writes one frame to many sockets in one go (`SocketIo.writeShared`: the
 * native transport), a broadcast's plain receivers (no session, compression or event stream)
 * are collected and written together: at the end of the loop, at each clock check of a slice,
 * and before any other write, so no socket's bytes change order.
 * Over 300 lines on purpose: the slow-consumer rule, nothing after a close frame, batching and
 * the slices are decisions over the same per-connection queue that read each other's state;
 * what stands alone has left (broadcast-slices.ts, flush-batcher.ts, frame-text.ts).
 */
import type { BroadcastTarget } from '../../core/route/socket-context.js'
import { BATCH_SEPARATOR } from '../../core/ws/envelope.js'
import { isCloseFrame } from '../../core/ws/frame-header.js'
import { encodeSseEvent } from '../../core/sse/encode-sse-event.js'
import { sessionCursorId } from '../../core/sse/session-cursor.js'
import { type SseFraming, sseWire } from '../../core/sse/sse-wire.js'
import { frameText } from './frame-text.js'
import { BROADCAST_SLICE, BroadcastSlices, type SlicedBroadcast } from './broadcast-slices.js'
import type { ClientSession, FrameSource } from '../recovery/client-session.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import type { FrameWriter, SocketIo } from '../platform.js'

/**
 * Where a connection's frames go first when it compresses (permessage-deflate): a queue that
 * compresses what it should and hands every frame back to `admit`, in the order sent.
 */
export interface FrameQueue {
  /** `broadcast`: the same frame goes to many receivers now (a compression may be shared). */
  send(frame: Uint8Array, broadcast: boolean): void
}

/** What delivery needs of a WebSocket connection. */
export interface Outlet<S> {
  readonly socket: S
  /** The largest frame queued since the backlog was last empty (exempt from the limit). */
  inFlight: number
  /** Stops the connection after a slow-consumer verdict: close frame, end, destroy later. */
  dropSlow(): void
  /** Set when the connection negotiated compression; `undefined` for plain frames. */
  readonly deflate: FrameQueue | undefined
  /** The client's session, when it has one: what it is sent is numbered. */
  readonly session?: ClientSession | undefined
  /**
   * Writes the frames the connection holds back to send in one go (echoes framed where they
   * arrived, lib/engine/connection/ws-connection.ts), so that they leave before anything written after them.
   */
  release?(): void
  /** A close frame was written (set by `admit`): nothing may follow it (RFC 6455 §5.5.1). */
  shut?: boolean
  /** The largest batch its client reads, in bytes; 0 or absent: every envelope in a message of its own. */
  readonly batch?: number
  /** A batching connection's numbered envelopes waiting for the end of the turn. */
  outbox?: string[] | undefined
  /** Set for a Server-Sent Events connection: how its answer's body is framed; `undefined` for a WebSocket. */
  readonly eventStream?: SseFraming | undefined
  /** The client's id, so that a direct write catches it up on the sliced broadcasts it is owed. */
  readonly ctx?: { readonly clientId: number }
  /** The `seq` of the last sliced broadcast written to it (broadcast-slices.ts); 0: none. */
  lastBroadcast?: number
}

/** The event a session client of an event stream is sent for numbered envelope `numbered`: `id:` is `<sid>:<seq>`. */
export const sessionEvent = (session: ClientSession, numbered: string): string => encodeSseEvent({ id: sessionCursorId(session.sid, session.lastSeq), data: numbered })

// The event-stream text of a message: the envelope's text, or a raw text frame's; a binary
// message has none.
const eventOf = (bytes: Uint8Array | undefined, text: string | undefined): string | undefined => {
  const data = text ?? (bytes === undefined ? undefined : frameText(bytes))
  return data === undefined ? undefined : encodeSseEvent({ data })
}

export interface DeliveryDeps<S> {
  readonly io: SocketIo<S>
  readonly maxSendBuffer: number
  readonly registry: NamespaceRegistry
  readonly frames: FrameWriter
  /**
   * The connected WebSocket clients by id (a `Map`, or the server's view of its registry);
   * `size` may count more (it only decides whether a broadcast to everyone is sliced).
   */
  readonly connections: { get(id: number): Outlet<S> | undefined; keys(): Iterable<number>; readonly size: number }
  /** Sessions whose client is away (within the recovery window): what they miss is kept. */
  readonly parked: ReadonlyMap<number, ClientSession>
  /** Told before a slow consumer is dropped. */
  readonly onSlowConsumer: (outlet: Outlet<S>, waitingBytes: number) => void
  /**
   * Holds a broadcast receiver's writes until the end of the I/O turn (the flush batcher),
   * so the broadcasts of one turn reach each receiver in one write; absent: written at once.
   */
  readonly hold?: (socket: S) => void
  /**
   * Runs `run` once the current batch of I/O callbacks is handled (the batching connections'
   * outboxes leave then, and the next slice of a large broadcast); absent: every broadcast is
   * written at once.
   */
  readonly afterIo?: (run: () => void) => void
  /** Receivers per slice of a large broadcast (`BROADCAST_SLICE`). */
  readonly sliceSize?: number
  /**
   * The clock (ms) that bounds a slice's time (`BROADCAST_SLICE_MS`, broadcast-slices.ts);
   * absent: slices are bounded by `sliceSize` only.
   */
  readonly now?: () => number
}

export interface Delivery<S> {
  /** Writes to one connection (through its compression, if any), unless it is gone or too slow. */
  write(outlet: Outlet<S>, bytes: Uint8Array): void
  /** Writes a finished frame to one connection, unless it is gone or too slow (the last step). */
  admit(outlet: Outlet<S>, bytes: Uint8Array): void
  /**
   * Writes to one client; false when there is no such WebSocket client. `text` is the
   * envelope the frame holds, for clients with a session (numbered); raw messages have none.
   */
  send(clientId: number, bytes: Uint8Array, text?: string): boolean
  /**
   * Sends an envelope to a client with a session, numbered, on whichever connection holds
   * the session now (or kept for its replay while it is away): an answer may outlive the
   * connection that asked.
   */
  sendToSession(clientId: number, text: string): boolean
  /**
   * Writes to every receiver of `target`; answers how many there were (for a sliced broadcast,
   * how many it is addressed to as it starts). `source` is the broadcast's origin for the
   * sessions' cursors (a recovery store is on), else undefined.
   */
  broadcast(bytes: Uint8Array, target: BroadcastTarget | undefined, text?: string, source?: FrameSource): number
  /** Writes a batching connection's outbox now (before a close frame, say). */
  flushOut(outlet: Outlet<S>): void
}

// What a text counts towards a batch's byte limit: at most 3 bytes of UTF-8 per UTF-16 code
// unit, and its separator. Never less than its bytes, so a batch never passes the limit.
const batchBytes = (text: string): number => text.length * 3 + 1

export const createDelivery = <S>({ io, frames, maxSendBuffer, registry, connections, parked, onSlowConsumer, hold, afterIo, sliceSize = BROADCAST_SLICE, now }: DeliveryDeps<S>): Delivery<S> => {
  // --- a broadcast's plain receivers, written together (`SocketIo.writeShared`, where the
  // runtime has it): collected while the broadcast loop runs, written at its end, at each
  // clock check of a slice, and before any other write, so every socket's bytes keep the
  // order they were sent in. `shared` is the scratch array, overwritten, never cleared.
  const writeShared = io.writeShared?.bind(io)
  const shared: S[] = []
  let sharedCount = 0
  let sharedBytes: Uint8Array | undefined
  const flushShared = (): void => {
    const count = sharedCount
    if (count === 0) return
    sharedCount = 0
    ;(writeShared as NonNullable<typeof writeShared>)(shared, count, sharedBytes as Uint8Array)
  }

  // The slow-consumer rule; false when nothing may be written to `outlet`.
  const admits = (outlet: Outlet<S>, bytes: Uint8Array): boolean => {
    outlet.release?.()
    const socket = outlet.socket
    if (io.isClosed(socket) || io.isEnded(socket) || outlet.shut === true) return false
    const waiting = io.buffered(socket)
    if (waiting === 0) outlet.inFlight = bytes.length
    else if (waiting - outlet.inFlight > maxSendBuffer) {
      onSlowConsumer(outlet, waiting)
      outlet.dropSlow()
      return false
    } else if (bytes.length > outlet.inFlight) outlet.inFlight = bytes.length
    return true
  }

  // A broadcast frame to a plain receiver, inside a broadcast loop: joins the shared write.
  const admitShared = (outlet: Outlet<S>, bytes: Uint8Array): void => {
    if (sharedCount > 0 && bytes !== sharedBytes) flushShared()
    if (!admits(outlet, bytes)) return
    sharedBytes = bytes
    shared[sharedCount++] = outlet.socket
  }

  const admitNow = (outlet: Outlet<S>, bytes: Uint8Array): void => {
    if (sharedCount > 0) flushShared()
    if (!admits(outlet, bytes)) return
    io.write(outlet.socket, bytes)
    // RFC 6455 §5.5.1: "After sending a Close frame, the endpoint MUST NOT send any more data
    // frames." A close frame is always written alone.
    if (isCloseFrame(bytes)) outlet.shut = true
  }

  // A compressing connection's frames go through its queue, which admits them in order.
  const writeNow = (outlet: Outlet<S>, bytes: Uint8Array): void => {
    if (outlet.deflate === undefined) admitNow(outlet, bytes)
    else outlet.deflate.send(bytes, false)
  }

  // --- batches: the outboxes filled in this turn, written at its end.
  const outboxes = new Set<Outlet<S>>()
  let scheduled = false
  const writeBatch = (outlet: Outlet<S>, texts: readonly string[], from: number, to: number): void =>
    writeNow(outlet, frames.text(to - from === 1 ? (texts[from] as string) : texts.slice(from, to).join(BATCH_SEPARATOR)))
  const flushOut = (outlet: Outlet<S>): void => {
    const texts = outlet.outbox
    if (texts === undefined) return
    outlet.outbox = undefined
    outboxes.delete(outlet)
    const limit = outlet.batch ?? 0
    let from = 0
    let size = 0
    for (let i = 0; i < texts.length; i++) {
      const bytes = batchBytes(texts[i] as string)
      if (i > from && size + bytes > limit) {
        writeBatch(outlet, texts, from, i)
        from = i
        size = 0
      }
      size += bytes
    }
    writeBatch(outlet, texts, from, texts.length)
  }
  const flushAll = (): void => {
    scheduled = false
    for (const outlet of outboxes) flushOut(outlet)
  }
  const queueOut = (outlet: Outlet<S>, text: string): void => {
    if (outlet.outbox !== undefined) return void outlet.outbox.push(text)
    outlet.outbox = [text]
    outboxes.add(outlet)
    if (scheduled) return
    scheduled = true
    ;(afterIo as (run: () => void) => void)(flushAll)
  }

  // The event-stream bytes of the last frame broadcast, per framing: built for its first
  // event-stream receiver, written as they are to the others.
  let sseFrame: Uint8Array | undefined
  let sseText: string | undefined
  let sseChunked: Uint8Array | undefined
  let sseClose: Uint8Array | undefined
  const sseWireOf = (bytes: Uint8Array | undefined, text: string | undefined, framing: SseFraming): Uint8Array | undefined => {
    if (bytes === undefined) {
      const event = eventOf(bytes, text)
      return event === undefined ? undefined : sseWire(event, framing)
    }
    if (bytes !== sseFrame || text !== sseText) {
      sseFrame = bytes
      sseText = text
      sseChunked = sseClose = undefined
    }
    const known = framing === 'chunked' ? sseChunked : sseClose
    if (known !== undefined) return known.length === 0 ? undefined : known
    const event = eventOf(bytes, text)
    const wire = event === undefined ? new Uint8Array(0) : sseWire(event, framing)
    if (framing === 'chunked') sseChunked = wire
    else sseClose = wire
    return event === undefined ? undefined : wire
  }
  // An event-stream receiver with a session: its own numbered event (`id:` its cursor).
  const deliverNumbered = (connection: Outlet<S>, session: ClientSession, framing: SseFraming, text: string, source: FrameSource | undefined): boolean => {
    if (session.has(source)) return true
    const numbered = session.number(text, source)
    admitNow(connection, sseWire(session.held === undefined ? sessionEvent(session, numbered) : encodeSseEvent({ data: numbered }), framing))
    return true
  }

  const receivers = (target: BroadcastTarget | undefined): Iterable<number> => {
    if (target?.room !== undefined) return registry.roomMembers(target.room, target.namespace) ?? []
    if (target?.namespace !== undefined) return registry.namespaceMembers(target.namespace) ?? []
    return parked.size === 0 ? connections.keys() : [...connections.keys(), ...parked.keys()]
  }

  // One receiver: the shared frame (through its compression, shared by a broadcast), or its
  // own numbered frame when it has a session; a parked session keeps the text for its replay.
  // `held`: a broadcast written at once, whose writes wait for the end of the turn when
  // another broadcast came in it (the flush batcher); a slice's are written as they come.
  // `together`: inside a broadcast loop that flushes the shared write (a plain receiver joins it).
  const deliver = (id: number, bytes: Uint8Array | undefined, text: string | undefined, broadcast: boolean, source: FrameSource | undefined, held = broadcast, together = false): boolean =>
    deliverTo(connections.get(id), id, bytes, text, broadcast, source, held, together)
  const deliverTo = (connection: Outlet<S> | undefined, id: number, bytes: Uint8Array | undefined, text: string | undefined, broadcast: boolean, source: FrameSource | undefined, held: boolean, together: boolean): boolean => {
    if (connection !== undefined) {
      if (!broadcast && slices !== undefined && slices.pending.length > 0) catchUp(connection)
      if (held) hold?.(connection.socket)
      const framing = connection.eventStream
      const session = connection.session
      if (framing !== undefined) {
        // The shared bytes are admitted here, not one call further down, so the broadcast
        // loop's optimized code can inline the write path as it does for a WebSocket receiver
        // (session 13's profile: one more level stopped it; bench/RESULTS.md, "Session 13").
        if (session !== undefined && text !== undefined) return deliverNumbered(connection, session, framing, text, source)
        const wire = sseWireOf(bytes, text, framing)
        if (wire === undefined) return false
        admitNow(connection, wire)
        return true
      }
      if (session !== undefined && text !== undefined) {
        if (session.has(source)) return true
        if (connection.batch && afterIo !== undefined) queueOut(connection, session.number(text, source))
        else writeNow(connection, frames.text(session.number(text, source)))
      }
      else if (bytes === undefined) return false
      else if (connection.deflate === undefined) {
        if (together && !isCloseFrame(bytes)) admitShared(connection, bytes)
        else admitNow(connection, bytes)
      }
      else connection.deflate.send(bytes, broadcast)
      return true
    }
    const away = parked.get(id)
    if (away === undefined || text === undefined) return false
    if (!away.has(source)) away.number(text, source)
    return true
  }

  // --- large broadcasts, a slice per turn; a client is written each of them once.
  const deliverSliced = (id: number, job: SlicedBroadcast, together = false): void => {
    const connection = connections.get(id)
    if (connection !== undefined) {
      if ((connection.lastBroadcast ?? 0) >= job.seq) return
      connection.lastBroadcast = job.seq
    }
    deliverTo(connection, id, job.bytes, job.text, true, job.source, false, together)
  }
  const slices = afterIo === undefined ? undefined : writeShared === undefined
    ? new BroadcastSlices(sliceSize, afterIo, deliverSliced, now)
    : new BroadcastSlices(sliceSize, afterIo, (id, job) => deliverSliced(id, job, true), now, undefined, flushShared)
  // Whether client `id` is a receiver of `target` now.
  const targets = (target: BroadcastTarget | undefined, id: number): boolean => {
    if (id === target?.except) return false
    if (target?.room !== undefined) return registry.roomMembers(target.room, target.namespace)?.has(id) === true
    if (target?.namespace !== undefined) return registry.namespaceMembers(target.namespace)?.has(id) === true
    return true
  }
  // Before a direct write to `outlet`: the queued broadcasts that target it and have not reached it yet, in order.
  const catchUp = (outlet: Outlet<S>): void => {
    const id = outlet.ctx?.clientId
    if (id === undefined) return
    for (const job of (slices as BroadcastSlices).pending) {
      if ((outlet.lastBroadcast ?? 0) < job.seq && targets(job.target, id)) deliverSliced(id, job)
    }
  }
  const owed = (outlet: Outlet<S>): void => {
    if (slices !== undefined && slices.pending.length > 0) catchUp(outlet)
  }
  // How many receivers `ids` holds (a set's size, the table's count for everyone), without reading them.
  const countOf = (ids: Iterable<number>, target: BroadcastTarget | undefined): number => {
    if (ids instanceof Set) return ids.size - (target?.except !== undefined && ids.has(target.except) ? 1 : 0)
    if (Array.isArray(ids)) return ids.length
    return connections.size
  }

  return {
    write: (outlet, bytes) => {
      owed(outlet)
      writeNow(outlet, bytes)
    },
    admit: (outlet, bytes) => {
      owed(outlet)
      admitNow(outlet, bytes)
    },
    flushOut,
    send: (clientId, bytes, text) => deliver(clientId, bytes, text, false, undefined),
    sendToSession: (clientId, text) => deliver(clientId, undefined, text, false, undefined),
    broadcast(bytes, target, text, source) {
      const ids = receivers(target)
      if (slices !== undefined && (slices.pending.length > 0 || countOf(ids, target) > slices.size)) {
        const count = countOf(ids, target)
        slices.add(bytes, target, text, source, ids)
        return count
      }
      let count = 0
      if (writeShared === undefined) {
        for (const id of ids) {
          if (id !== target?.except && deliver(id, bytes, text, true, source)) count += 1
        }
        return count
      }
      try {
        for (const id of ids) {
          if (id !== target?.except && deliver(id, bytes, text, true, source, true, true)) count += 1
        }
      } finally {
        flushShared()
      }
      return count
    },
  }
}

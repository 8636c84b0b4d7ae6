/**
 * `serveNative`: a server on twinport's native transport (native/twinport.c through
 * `NativeBinding`) driving the portable engine with Node's platform, its sockets replaced by
 * the addon's (`nativeSocketIo`). It listens on `host`:`port`, hands each connection to the
 * engine and passes its bytes, end, drain and close along; it holds no protocol, room or
 * time-out logic of its own. TLS, `path` and `handle` stay on node:net (the caller decides).
 *
 * With `reusePort` the listening socket gets `SO_REUSEPORT`, so several processes serve one
 * port, each accepting its own connections (the kernel spreads them).
 *
 * The addon reports each wake-up of its epoll set in one `batch` call: a table of records (opened,
 * data, end, drain, close) for every socket it found ready, handled here in order. The engine's
 * `afterIo` work of the wake-up (the metrics' clock read, uncorks) runs in one `turnEnd` call
 * the addon makes after the batch's microtasks, not in a `setImmediate` per turn. Reads arrive
 * as views of the addon's slab (a 64 KiB ArrayBuffer filled front to back and then replaced),
 * so a view the engine keeps is never overwritten. When accept runs out of
 * descriptors the addon backs off (stops watching the listening socket for 100 ms) and says so
 * once per back-off: the engine's AcceptWall counts it and logs once per interval. Part of lib/native:
 * imports the engine, the shared runtime layer (lib/runtime/) and this folder.
 */
import type { Client } from '../engine/connection/client.js'
import { createEngine } from '../engine/create-engine.js'
import type { Platform } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import { nodePlatform } from '../runtime/node-platform.js'
import { nodeTimers } from '../runtime/node-timers.js'
import { type NativeBinding, NativeRecord, RECORD_FIELDS } from './native-binding.js'
import { type NativeConn, nativeConnClosed, nativeConnDrained, nativeSocketIo, newNativeConn } from './native-socket-io.js'
import { createTurnQueue } from './turn-queue.js'

// The kernel's accept queue, as node:net asks for it.
const BACKLOG = 511
const { OPEN, DATA, END, DRAIN, CLOSE } = NativeRecord

/** The engine's options and what only the native transport's listener reads. */
export interface NativeServerOptions extends ServerOptions {
  /**
   * Sets `SO_REUSEPORT` on the listening socket (Linux): several processes (node:cluster
   * workers or unrelated ones, same user) each listen on the same `host`:`port` with their own
   * accept queue, and the kernel spreads new connections over them by their addresses' hash,
   * with no hand-off through a primary process. Every listener on the port must set it.
   * Default false: a second listener fails with `EADDRINUSE`.
   */
  readonly reusePort?: boolean
}

/**
 * Starts a server on the native transport. Rejects with an Error naming every bad option or
 * route-table problem, or the listen error (`EADDRINUSE`, ...).
 *
 * @example
 * const native = loadNativeBinding()
 * if (native._tag === 'Right') await serveNative({ port: 0, routes }, native.right)
 */
export const serveNative = async (options: NativeServerOptions, binding: NativeBinding): Promise<ServerHandle> => {
  // The engine's clients by slot (each one's socket is its NativeConn); a slot is reused only
  // after its connection closed. A refused connection has none.
  const clients: (Client<NativeConn> | undefined)[] = []
  let closedLater: Client<NativeConn>[] = []
  const reportClosed = (): void => {
    const batch = closedLater
    closedLater = []
    for (const client of batch) engine.closed(client)
  }
  const later = (client: Client<NativeConn>): void => {
    if (closedLater.push(client) === 1) setImmediate(reportClosed)
  }
  const closedHere = (conn: NativeConn): void => {
    const client = clients[conn.slot]
    if (client === undefined || client.socket !== conn) return // refused, or closed inside accept (open() sees to it)
    clients[conn.slot] = undefined
    later(client)
  }
  // The engine's end-of-turn work runs when the addon's wake-up is done (turn-queue.ts).
  const turn = createTurnQueue(binding.turnEnds === true)
  const timers = { ...nodeTimers, afterIo: turn.afterIo }
  const platform: Platform<NativeConn> = { ...nodePlatform, io: nativeSocketIo(binding, closedHere), timers, pullOutlet: undefined }
  const engine = createEngine(options, platform)
  const { logger } = engine
  const { host, port: askedPort } = engine.options

  const open = (slot: number): void => {
    const conn = newNativeConn(slot)
    const client = engine.accept(conn)
    if (client === undefined) return
    // Closed while the engine accepted it: reported after this I/O, like any close this side causes.
    if (platform.io.isClosed(conn)) later(client)
    else clients[slot] = client
  }
  const drain = (slot: number): void => {
    const client = clients[slot]
    if (client === undefined) return
    const conn = client.socket
    nativeConnDrained(conn)
    if (!platform.io.isEnded(conn)) client.receiver.writable?.()
  }
  const close = (slot: number): void => {
    const client = clients[slot]
    if (client === undefined) return
    clients[slot] = undefined
    nativeConnClosed(client.socket)
    engine.closed(client)
  }

  let listener
  try {
    listener = binding.listen(host, askedPort, BACKLOG, {
      // One call per wake-up of the addon's epoll set: every socket it found ready, in order.
      // A throw (a handler's bug) does not drop the records after it: the first is rethrown at
      // the end, to 'uncaughtException' as one thrown in a node:net event listener goes.
      // Answers true when the engine deferred work to the turn's end: the addon calls turnEnd.
      batch(records, slab, count) {
        let thrown: { error: unknown } | undefined
        turn.open()
        for (let at = 0, end = count * RECORD_FIELDS; at < end; at += RECORD_FIELDS) {
          const slot = records[at + 1] as number
          try {
            switch (records[at]) {
              case DATA:
                if (slab !== undefined) clients[slot]?.receiver.receive(new Uint8Array(slab, records[at + 2], records[at + 3]))
                break
              case OPEN:
                open(slot)
                break
              case END:
                clients[slot]?.receiver.peerEnded()
                break
              case DRAIN:
                drain(slot)
                break
              case CLOSE:
                close(slot)
                break
            }
          } catch (error) {
            thrown ??= { error }
          }
        }
        const waiting = turn.close(thrown !== undefined)
        if (thrown !== undefined) throw thrown.error
        return waiting
      },
      turnEnd: turn.run,
      acceptFailed(code) {
        // Counted by the engine's AcceptWall and logged once per interval, as node:net's are.
        engine.acceptFailed(Object.assign(new Error(`accept ${code}`), { code, syscall: 'accept' }))
      },
    }, options.reusePort === true)
  } catch (error) {
    await engine.handle.close()
    throw error
  }
  const address = { host, port: listener.port }
  logger.info('twinport listening on {host}:{port}', address)

  let stopped = false
  return {
    ...engine.handle,
    address,
    setSecureContext: () => Promise.reject(new Error('setSecureContext: the server was started without the tls option')),
    close: async () => {
      if (!stopped) {
        stopped = true
        binding.close(listener.server)
      }
      await engine.handle.close()
    },
  }
}

/**
 * `runServer` on Deno (`twinport/deno`): the adapter between `Deno.listen` and the portable
 * engine (`lib/engine/`). Same options, same handle, same behaviour as on Node; it holds no
 * protocol, room or time-out logic of its own.
 *
 * With `tls`, the server is the shared server on Deno's `node:net` and `node:tls`, not
 * `Deno.listenTls` (tls-server.ts says why).
 *
 * A Deno connection is read and written with promises: each connection has a read loop, here
 * (its buffer small until the peer sends more), and one write in flight at a time
 * (deno-socket-io.ts); what is written meanwhile waits in a backlog and leaves joined in the
 * next write, in order. The backlog is what the engine's slow-consumer rule measures.
 *
 * Imports the core, the engine, the shared runtime layer (lib/runtime/) and this folder,
 * never another adapter.
 */
import { createEngine } from '../engine/create-engine.js'
import { portableFrames } from '../engine/delivery/outgoing.js'
import type { Platform, Timers } from '../engine/platform.js'
import type { ServerHandle } from '../engine/server-handle.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import { nodeCompatParts } from '../runtime/node-compat-parts.js'
import { nodeFiles } from '../runtime/node-files.js'
import { openFileLimit } from '../runtime/open-file-limit.js'
import { isDescriptorError } from '../engine/connection/accept-wall.js'
import { denoApi } from './deno-api.js'
import { createDenoIo, type Socket } from './deno-socket-io.js'

// A pending read holds its buffer, so every idle connection holds one: it starts small and
// grows (×4, up to 64 KiB) when a read fills it, i.e. once the peer sends faster.
const READ_FIRST = 2 * 1024
// After an accept failed for want of file descriptors, the next try waits this long.
const ACCEPT_RETRY_MS = 50
const READ_MAX = 64 * 1024

/**
 * Starts a server on Deno (needs `--allow-net`). Rejects with an Error naming every bad
 * option or route-table problem, or when Deno is not the runtime.
 *
 * @example
 * const server = await runServer({ port: 0, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
 * await server.close()
 */
export const runServer = async (options: ServerOptions = {}): Promise<ServerHandle> => {
  const deno = denoApi()
  if (deno === undefined) throw new Error('twinport/deno: runServer needs the Deno runtime (use `twinport` on Node)')
  if (options.tls !== undefined) return (await import('./tls-server.js')).serveTls(options)
  const unref = <T>(id: T): T => {
    deno.unrefTimer(id as number)
    return id
  }
  const timers: Timers = {
    now: Date.now,
    setTimeout: (run, ms) => unref(setTimeout(run, ms)),
    clearTimeout: (id) => clearTimeout(id as number),
    setInterval: (run, ms) => unref(setInterval(run, ms)),
    clearInterval: (id) => clearInterval(id as number),
    afterIo: (run) => void setTimeout(run, 0),
  }
  // Set once the engine exists; a socket can only be gone after it was accepted.
  let closedHook: (socket: Socket) => void = () => undefined
  const io = createDenoIo((socket) => closedHook(socket))
  const platform: Platform<Socket> = {
    ...nodeCompatParts,
    io,
    timers,
    frames: portableFrames,
    allocate: (size) => new Uint8Array(size),
    files: nodeFiles,
    // Read only with the permission already granted: a server never prompts for it.
    openFileLimit: () => (deno.permissions?.querySync?.({ name: 'read', path: '/proc/self/limits' }).state === 'granted' ? openFileLimit() : undefined),
  }
  const engine = createEngine(options, platform)
  closedHook = (socket) => {
    if (socket.client !== undefined) engine.closed(socket.client)
  }
  const { logger } = engine
  const debug = engine.options.debug
  const { host, port: askedPort } = engine.options

  const serve = async (socket: Socket): Promise<void> => {
    let scratch = new Uint8Array(READ_FIRST)
    for (;;) {
      if (socket.paused === null) await new Promise<void>((resolve) => (socket.paused = resolve))
      let n: number | null
      try {
        n = await socket.conn.read(scratch)
      } catch (error) {
        if (debug) logger.debug('socket error', { clientId: socket.client?.id, error: error instanceof Error ? error.message : String(error) })
        return io.destroy(socket)
      }
      if (socket.closed) return
      if (n === null) {
        socket.peerEnded = true
        if (socket.ended && !socket.writing) return io.destroy(socket)
        socket.client?.receiver.peerEnded()
        return
      }
      // The engine keeps views of what it is given (a streamed request body's pieces), so the
      // buffer it gets is never read into again. A read that filled at least half the buffer is
      // handed over as it is and a new buffer taken (no copy, at most half of it idle); a
      // smaller one is copied out, so a few bytes never pin a whole buffer, which is reused.
      const next = n === scratch.length && n < READ_MAX ? n * 4 : scratch.length
      if (n * 2 >= scratch.length) {
        const read = scratch.subarray(0, n)
        scratch = new Uint8Array(next)
        socket.client?.receiver.receive(read)
      } else socket.client?.receiver.receive(scratch.slice(0, n))
    }
  }

  let listener
  try {
    listener = deno.listen({ hostname: host, port: askedPort, transport: 'tcp' })
  } catch (error) {
    await engine.handle.close()
    throw error
  }
  let stopped = false
  const accepting = (async () => {
    for (;;) {
      let conn
      try {
        conn = await listener.accept()
      } catch (error) {
        // The listener was closed; or out of file descriptors (EMFILE): counted, then tried
        // again a little later (an accept loop must outlive the wall).
        if (stopped || !isDescriptorError(error)) return
        engine.acceptFailed(error)
        await new Promise((resolve) => setTimeout(resolve, ACCEPT_RETRY_MS))
        continue
      }
      const socket: Socket = { conn, client: undefined, backlog: [], backlogBytes: 0, corked: undefined, writing: false, ended: false, peerEnded: false, closed: false, paused: undefined }
      conn.setNoDelay?.(true)
      socket.client = engine.accept(socket)
      void serve(socket)
    }
  })()
  const port = listener.addr.port
  logger.info('twinport listening on {host}:{port}', { host, port })

  return {
    ...engine.handle,
    address: { host, port },
    setSecureContext: () => Promise.reject(new Error('setSecureContext: the server was started without the tls option')),
    close: async () => {
      if (!stopped) {
        stopped = true
        listener.close()
      }
      await Promise.all([engine.handle.close(), accepting])
    },
  }
}

/**
 * `attach(server, options)`: twinport beside an existing `node:http` / `node:https` server
 * (Express, Fastify, Koa, a Next.js custom server; an `http2` server with `allowHTTP1` for its
 * HTTP/1.1 upgrades), on the same port (DESIGN §8). The server keeps its own requests; twinport
 * takes:
 * - the WebSocket upgrades addressed to it (`paths`; the others stay with the server's other
 *   `upgrade` listeners): the socket goes to the engine with the request head re-fed as
 *   received (`rawHeaders`) and the bytes after it, so the engine decides the upgrade (origins,
 *   middleware, subprotocols, compression, sessions) and serves the client like one of its own;
 * - with `http: true`, the HTTP requests its route table answers (every other request goes on
 *   to the server's own listeners untouched), through the engine's dispatch: the same routes,
 *   middleware, CORS, limits and error answers as `runServer`; an event stream (`sseRoute`) is a
 *   client of the registry whose events go out through the `ServerResponse` (`withPullOutlets`).
 *   `handleRequest` is the same as an Express/Connect middleware, for wiring by hand.
 * `close()` closes twinport's clients and gives the server its listeners back; the server stays
 * open. Imports the core, the engine, the shared runtime layer and `node:*`, never another adapter.
 */
import type { IncomingMessage, Server as HttpServer, ServerResponse } from 'node:http'
import type { Server as HttpsServer } from 'node:https'
import type { Duplex } from 'node:stream'
import type { Socket } from 'node:net'
import type { BodyStream, ExchangeOwner } from '../core/http/body-stream.js'
import { httpErrorResponse } from '../core/http/http-error-response.js'
import type { HttpRequest } from '../core/http/types.js'
import { createEngine } from '../engine/create-engine.js'
import { withPullOutlets } from '../engine/http/pull-outlet.js'
import { bodyTooLarge } from '../core/http/http-error.js'
import { type HostBody, hostBodyStream } from '../engine/http/host-body.js'
import type { ServerOptions } from '../engine/options/server-options.js'
import type { ServerHandle } from '../engine/server-handle.js'
import { acceptSockets } from '../runtime/accept-sockets.js'
import { nodePlatform } from '../runtime/node-platform.js'
import { httpRequestOf, rawHeadOf, splitTarget } from './node-request.js'
import { writeAnswer } from './write-answer.js'

/** A server twinport can attach to: `node:http`'s, `node:https`'s, or anything emitting their `request` and `upgrade`. */
export type AttachableServer = HttpServer | HttpsServer | Pick<HttpServer, 'on' | 'off' | 'listeners' | 'listenerCount' | 'removeAllListeners'>

/** The options of `attach`: the server's options (the host owns `host`, `port` and `tls`), and what to take. */
export interface AttachOptions extends Omit<ServerOptions, 'host' | 'port' | 'tls'> {
  /**
   * The WebSocket upgrades twinport takes: those whose path (without the query) is one of
   * these, or for which the function answers true. Default: every WebSocket upgrade. An
   * upgrade it does not take is left to the server's other `upgrade` listeners (and answered
   * 404 when there are none).
   */
  readonly paths?: readonly string[] | ((path: string, req: IncomingMessage) => boolean)
  /**
   * `true`: twinport also takes the server's HTTP requests its route table answers, ahead of
   * the server's own `request` listeners (which get every other request). Default `false`:
   * wire `handleRequest` yourself (an Express/Connect middleware), or serve WebSockets only.
   */
  readonly http?: boolean
}

/** twinport attached to a server: the handle's operations, and the wiring. */
export interface AttachedServer extends Omit<ServerHandle, 'address' | 'setSecureContext'> {
  /**
   * Takes a WebSocket upgrade (the server's `upgrade` event, wired by hand): `false`, leaving
   * the socket untouched, when it is not one twinport takes (`paths`, or not a WebSocket).
   */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): boolean
  /**
   * Answers a request its route table answers and returns `true`; otherwise calls `next`
   * (when given) and returns `false`. As an Express/Connect middleware:
   * `app.use((req, res, next) => void attached.handleRequest(req, res, next))`, before any body parser.
   */
  handleRequest(req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): boolean
  /** Closes twinport's clients (WebSockets with 1001) and detaches from the server, which stays open. */
  close(): Promise<void>
}

const EMPTY = new Uint8Array(0)

const isWebSocketUpgrade = (req: IncomingMessage): boolean => (req.headers.upgrade ?? '').toLowerCase() === 'websocket'

const hasBody = (req: IncomingMessage): boolean => req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] !== undefined && req.headers['content-length'] !== '0')

// The request's body, with `100 Continue` sent when it is first read.
const continuing = (req: IncomingMessage, res: ServerResponse): HostBody => ({
  [Symbol.asyncIterator]: () => {
    if (!res.headersSent) res.writeContinue()
    return req[Symbol.asyncIterator]()
  },
})

const declaredLength = (req: IncomingMessage): number | undefined => {
  const value = req.headers['content-length']
  if (value === undefined || req.headers['transfer-encoding'] !== undefined) return undefined
  const n = Number(value)
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined
}

/**
 * Attaches twinport to `server`. Throws an Error naming every bad option or route-table
 * problem.
 *
 * @example
 * const server = express().listen(3000)
 * const twin = attach(server, { routes, http: true, paths: ['/ws'] })
 * // later: await twin.close(); server.close()
 */
export const attach = (server: AttachableServer, options: AttachOptions = {}): AttachedServer => {
  const { paths, http, ...serverOptions } = options
  if (paths !== undefined && typeof paths !== 'function' && (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string' && p.startsWith('/')))) {
    throw new Error('attach: invalid options\n  paths: expected paths starting with / or a function')
  }
  // Event streams are clients of the registry whose bytes the ServerResponse pulls (pull-outlet.ts).
  const engine = createEngine(serverOptions, withPullOutlets(nodePlatform))
  const { embedded } = engine
  const accept = acceptSockets(engine)
  const takes = (req: IncomingMessage): boolean => {
    if (paths === undefined) return true
    const { path } = splitTarget(req.url ?? '/')
    return typeof paths === 'function' ? paths(path, req) : paths.includes(path)
  }
  let closed = false

  const handleUpgrade = (req: IncomingMessage, duplex: Duplex, head: Buffer): boolean => {
    if (closed || !isWebSocketUpgrade(req) || !takes(req)) return false
    const socket = duplex as Socket
    const client = accept(socket)
    if (client === undefined) return true
    // The head as received, then what came after it: the engine parses and decides it.
    client.receiver.receive(rawHeadOf(req))
    if (head.length > 0) client.receiver.receive(new Uint8Array(head.buffer, head.byteOffset, head.length))
    return true
  }

  // As runServer: the middleware and the router run on the head; the body is read when the
  // route asks for it (whole for a route that takes it whole, through the dispatch), so a
  // refused request's body is never read. `continues`: the request waits for `100 Continue`
  // (it came through `checkContinue`), sent when the body is first read.
  const serve = async (req: IncomingMessage, res: ServerResponse, continues: boolean): Promise<void> => {
    const method = req.method ?? 'GET'
    const { path } = splitTarget(req.url ?? '/')
    const plan = embedded.planOf(method, path)
    const controller = new AbortController()
    res.once('close', () => {
      if (!res.writableFinished) controller.abort(new Error('the client went away'))
    })
    const request: HttpRequest = httpRequestOf(req, EMPTY)
    const length = declaredLength(req)
    const withBody = hasBody(req)
    // Refused by its Content-Length before anything runs, as runServer refuses it.
    if (withBody && length !== undefined && length > plan.maxBody) return writeAnswer(res, httpErrorResponse(bodyTooLarge(plan.maxBody)), request, embedded, true)
    const stream: BodyStream | undefined = plan.stream || withBody ? hostBodyStream(continues ? continuing(req, res) : req, plan.maxBody, length) : undefined
    const owner: ExchangeOwner = { signalOf: () => controller.signal, bodyOf: () => stream, remoteAddress: () => req.socket.remoteAddress }
    const answer = await embedded.respond(request, owner)
    // Answered before its body was read to its end: the connection is not reused.
    writeAnswer(res, answer, request, embedded, !plan.stream && withBody && !req.readableEnded)
  }

  const take = (req: IncomingMessage, res: ServerResponse, continues: boolean): boolean => {
    if (closed || !embedded.claims(req.method ?? 'GET', splitTarget(req.url ?? '/').path)) return false
    void serve(req, res, continues).catch((error: unknown) => {
      engine.logger.exception(error, { method: req.method, path: req.url, phase: 'attach' })
      if (!res.headersSent) res.writeHead(500, { 'Content-Type': 'application/json' }).end('{"error":"internal_error"}')
      else res.destroy()
    })
    return true
  }

  const handleRequest = (req: IncomingMessage, res: ServerResponse, next?: (error?: unknown) => void): boolean => {
    if (take(req, res, false)) return true
    next?.()
    return false
  }

  // The server's upgrades: twinport's, then the other listeners'; none left: 404.
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer): void => {
    if (handleUpgrade(req, socket, head)) return
    if (server.listenerCount('upgrade') === 1) socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\nContent-Length: 21\r\nConnection: close\r\n\r\n{"error":"not_found"}')
  }
  server.on('upgrade', onUpgrade)

  // With `http`, the server's own request listeners go behind twinport's (as engine.io does).
  const ownListeners = http === true ? (server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[]) : []
  const onRequest = (req: IncomingMessage, res: ServerResponse): void => {
    if (handleRequest(req, res)) return
    for (const listener of ownListeners) listener.call(server, req, res)
  }
  // `Expect: 100-continue`: Node answers it before `request` unless `checkContinue` is
  // handled. With `http`, twinport handles it (unless the server does): its own requests get
  // `100 Continue` once the route reads the body; the others at once, then the server's listeners.
  const onCheckContinue = (req: IncomingMessage, res: ServerResponse): void => {
    if (take(req, res, true)) return
    res.writeContinue()
    for (const listener of ownListeners) listener.call(server, req, res)
  }
  const handlesContinue = http === true && server.listenerCount('checkContinue') === 0
  if (http === true) {
    server.removeAllListeners('request')
    server.on('request', onRequest)
  }
  if (handlesContinue) server.on('checkContinue', onCheckContinue)

  return {
    ...engine.handle,
    handleUpgrade,
    handleRequest,
    close: async () => {
      if (!closed) {
        closed = true
        server.off('upgrade', onUpgrade)
        if (handlesContinue) server.off('checkContinue', onCheckContinue)
        if (http === true) {
          server.off('request', onRequest)
          for (const listener of ownListeners) server.on('request', listener)
        }
      }
      await engine.handle.close()
    },
  }
}

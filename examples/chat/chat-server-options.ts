/**
 * `chatServerOptions`: the `runServer` options of the chat demo: its state, its routes, the
 * origin rules, CORS and limits sized for chat. `startChat` runs them.
 *
 * Origins, as a real deployment would have them:
 * - WebSocket and the event stream: the chat's own page and the origins in `origins` may
 *   connect; other sites' pages get 403 before the upgrade (`origin-guard.ts`, `origin-policy.ts`). The
 *   framework's `allowedOrigins` list is left at `*` because a fixed list cannot say "the
 *   page's own origin" when the server is reached under several names (localhost, its
 *   address, a proxy's name) or on a port chosen at start; the guard compares Origin with Host.
 * - REST (CORS): the page needs none (same origin). Only the origins in `origins` get
 *   CORS grants, for GET and POST with a JSON body, never with credentials (the chat has
 *   no cookies); with no origins listed, no other site may read or post. Writes are also
 *   checked against the origin policy by the same guard, before their bodies are read, and
 *   must be JSON (so a cross-site HTML form, which no preflight guards, cannot post).
 */
import type { ClusterAdapter, Logger, ServerOptions, TlsOptions } from '../../lib/index.js'
import { messageFactory } from './chat-message.js'
import { createPresence, type Schedule } from './chat-presence.js'
import { createChatRooms } from './chat-rooms.js'
import { chatRoutes } from './chat-routes.js'
import { originPolicy } from './origin-policy.js'
import { originGuard } from './origin-guard.js'

export interface ChatOptions {
  /** Interface to listen on (default `0.0.0.0`). */
  readonly host?: string
  /** Port (default `6001`; `0` picks a free one). */
  readonly port?: number
  /** Other sites' origins trusted to use the chat, e.g. `['https://chat.example']`. */
  readonly origins?: readonly string[]
  /** Where log entries go (the framework's console logger by default). */
  readonly logger?: Logger
  readonly debug?: boolean
  /** The folder of the page's files (`public/` beside chat-assets.ts by default). */
  readonly publicDir?: string
  /** The clock stamping messages. */
  readonly now?: () => Date
  /**
   * How long a departed member stays in its rooms before "left" is announced, so that a
   * reload or a short loss of connection goes unnoticed (default `CHAT_GRACE_MS`; 0: none).
   */
  readonly graceMs?: number
  /** Serve the page over `https://` and the chat over `wss://` (plain HTTP when absent). */
  readonly tls?: TlsOptions
  /**
   * The rest of the cluster (`redisAdapter` from `twinport/redis`): room messages then reach
   * the members on every process, and who is online in a room (presence) is the same on every
   * process; names, the room list and the history stay per process (docs/guide.md "Scaling
   * out", README "Who is online").
   */
  readonly cluster?: ClusterAdapter
}

/** Long enough for a page reload and the page's first two reconnection attempts (0.5 s, 1 s). */
export const CHAT_GRACE_MS = 5_000

// The grace timers must not keep a process alive that is otherwise done.
const schedule: Schedule = (ms, run) => {
  const timer = setTimeout(run, ms)
  timer.unref()
  return () => clearTimeout(timer)
}

/** A chat line is at most 500 characters; 64 KiB leaves room for any valid event or post. */
export const CHAT_SERVER_LIMITS = { maxBody: 64 * 1024, maxFramePayload: 64 * 1024, maxMessage: 64 * 1024 } as const

/**
 * The server options for `options`, with a fresh chat state.
 *
 * @example
 * const server = await runServer(chatServerOptions({ port: 0 }))
 */
export const chatServerOptions = (options: ChatOptions = {}): ServerOptions => {
  const origins = options.origins ?? []
  const allowed = originPolicy(origins)
  const routes = chatRoutes({
    rooms: createChatRooms(),
    presence: createPresence({ graceMs: options.graceMs ?? CHAT_GRACE_MS, schedule, newToken: () => crypto.randomUUID() }),
    ...(options.publicDir === undefined ? {} : { publicDir: options.publicDir }),
    newMessage: messageFactory(options.now),
  })
  return {
    host: options.host ?? '0.0.0.0',
    port: options.port ?? 6001,
    debug: options.debug ?? false,
    routes,
    httpMiddleware: [originGuard(allowed)],
    allowedOrigins: ['*'],
    cors: {
      allowedOrigins: origins,
      allowedMethods: ['GET', 'POST', 'OPTIONS'],
      allowedHeaders: ['Content-Type'],
      allowCredentials: false,
      maxAge: 600,
    },
    limits: CHAT_SERVER_LIMITS,
    // The page, its script and the client bundle go out compressed to browsers that accept it.
    compress: true,
    ...(options.logger === undefined ? {} : { logger: options.logger }),
    ...(options.tls === undefined ? {} : { tls: options.tls }),
    ...(options.cluster === undefined ? {} : { cluster: options.cluster }),
  }
}

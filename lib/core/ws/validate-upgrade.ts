/**
 * The server side of the opening handshake (RFC 6455 §4.2.1): whether a request asks for a
 * WebSocket, and whether it asks correctly, from an allowed origin, with which subprotocol.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { headerValue } from '../http/header-value.js'
import type { HttpRequest } from '../http/types.js'
import { acceptKey } from './accept-key.js'
import {
  type HandshakeError,
  invalidKey,
  methodNotGet,
  missingConnectionUpgrade,
  notHttp11,
  notWebSocketUpgrade,
  originNotAllowed,
  unsupportedWebSocketVersion,
} from './handshake-error.js'

/** A handshake the server can accept: what the 101 response and the connection need. */
export interface Upgrade {
  /** The client's `Sec-WebSocket-Key`. */
  readonly key: string
  /** `acceptKey(key)`, for `Sec-WebSocket-Accept`. */
  readonly accept: string
  /** The subprotocol chosen, when the client offered one the server speaks. */
  readonly protocol?: string
  /** The client's `Origin`, when it sent one. */
  readonly origin?: string
  /** The request path, still percent-encoded. */
  readonly path: string
  /** The query without `?`, still encoded (empty when there is none). */
  readonly rawQuery: string
}

/** What the server accepts. */
export interface UpgradeOptions {
  /** Origins allowed to connect, e.g. `['https://app.example']`; `['*']` allows any. */
  readonly allowedOrigins: readonly string[]
  /** Subprotocols the server speaks; the first one the client offers is chosen. */
  readonly protocols?: readonly string[]
  /**
   * Computes `Sec-WebSocket-Accept` from the key (default: the portable {@link acceptKey}).
   * Injected so a runtime with a native SHA-1 can use it; it must give the same answer.
   */
  readonly acceptKey?: (key: string) => string
}

// The comma-separated elements of a header (RFC 9110 §5.6.1), repeated lines included, trimmed.
const headerList = (req: HttpRequest, name: string): string[] =>
  (headerValue(req.headers, name) ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '')

const hasToken = (req: HttpRequest, name: string, token: string): boolean =>
  headerList(req, name).some((v) => v.toLowerCase() === token)

// 16 bytes in base64: 22 characters, the last of which carries 2 bits, then "==".
const KEY = /^[A-Za-z0-9+/]{21}[AQgw]==$/

/**
 * Whether the request asks to switch to WebSocket (its `Upgrade` header names `websocket`),
 * whether or not it asks correctly: such a request goes to `validateUpgrade`, others are
 * plain HTTP.
 *
 * @example
 * isWebSocketUpgrade({ ...request, headers: [['Upgrade', 'WebSocket']] }) // true
 */
export const isWebSocketUpgrade = (req: HttpRequest): boolean => hasToken(req, 'upgrade', 'websocket')

/**
 * Whether `origin` is among `allowed` (`*` allows any), compared without case: the upgrade's
 * check, and a post to an event stream's (`eventPost`).
 *
 * @example
 * isAllowedOrigin('https://A.example', ['https://a.example']) // true
 */
export const isAllowedOrigin = (origin: string, allowed: readonly string[]): boolean => {
  const wanted = origin.toLowerCase()
  return allowed.some((a) => a === '*' || a.toLowerCase() === wanted)
}

/**
 * Checks an upgrade request (RFC 6455 §4.2.1) and gives what the 101 response needs, or why
 * it is refused: 400 for a malformed request, 426 (with `Sec-WebSocket-Version: 13`) for
 * another protocol version, 403 for an origin not in the list. A request without `Origin`
 * (not a browser) is not refused for it: the list guards against other sites' pages.
 *
 * @example
 * validateUpgrade(request, { allowedOrigins: ['*'] })
 * // Right({ key: 'dGhlIHNhbXBsZSBub25jZQ==', accept: 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=', path: '/chat', ... })
 */
export const validateUpgrade = (req: HttpRequest, options: UpgradeOptions): E.Either<HandshakeError, Upgrade> => {
  if (req.method !== 'GET') return E.left(methodNotGet(req.method))
  if (req.protocol !== 'HTTP/1.1') return E.left(notHttp11())
  if (!isWebSocketUpgrade(req)) return E.left(notWebSocketUpgrade())
  if (!hasToken(req, 'connection', 'upgrade')) return E.left(missingConnectionUpgrade())
  // Repeated lines are joined with ", ", so a second version, key or origin fails below.
  if (headerValue(req.headers, 'sec-websocket-version')?.trim() !== '13') return E.left(unsupportedWebSocketVersion())
  const key = headerValue(req.headers, 'sec-websocket-key')?.trim() ?? ''
  if (!KEY.test(key)) return E.left(invalidKey())
  const origin = headerValue(req.headers, 'origin')?.trim()
  if (origin !== undefined && !isAllowedOrigin(origin, options.allowedOrigins)) return E.left(originNotAllowed(origin))
  const supported = options.protocols ?? []
  const protocol = headerList(req, 'sec-websocket-protocol').find((p) => supported.includes(p))
  return E.right({
    key,
    accept: (options.acceptKey ?? acceptKey)(key),
    ...(protocol === undefined ? {} : { protocol }),
    ...(origin === undefined ? {} : { origin }),
    path: req.path,
    rawQuery: req.rawQuery,
  })
}

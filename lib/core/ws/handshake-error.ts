/**
 * Why an upgrade request was refused, as a tagged union. Each variant carries the HTTP status
 * to answer with (RFC 6455 §4.2.1–§4.2.2), the headers that answer needs and a short reason;
 * the HTTP side serialises it like any other response.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import type { Header } from '../http/types.js'

interface Refusal<Tag extends string, Status extends number> {
  readonly _tag: Tag
  readonly status: Status
  /** Extra response headers, e.g. `Sec-WebSocket-Version: 13` with 426. */
  readonly headers: readonly Header[]
  readonly reason: string
}

/** The upgrade request is not a GET. */
export type MethodNotGet = Refusal<'MethodNotGet', 400> & { readonly method: string }
/** The upgrade request is HTTP/1.0. */
export type NotHttp11 = Refusal<'NotHttp11', 400>
/** `Upgrade` does not name `websocket`. */
export type NotWebSocketUpgrade = Refusal<'NotWebSocketUpgrade', 400>
/** `Connection` does not name `upgrade`. */
export type MissingConnectionUpgrade = Refusal<'MissingConnectionUpgrade', 400>
/** `Sec-WebSocket-Version` is missing or not 13: answered with the version spoken. */
export type UnsupportedWebSocketVersion = Refusal<'UnsupportedVersion', 426>
/** `Sec-WebSocket-Key` is missing, repeated, or not 16 bytes in base64. */
export type InvalidKey = Refusal<'InvalidKey', 400>
/** `Origin` is not in the allowed list. */
export type OriginNotAllowed = Refusal<'OriginNotAllowed', 403> & { readonly origin: string }

/** Why a handshake was refused. */
export type HandshakeError =
  | MethodNotGet
  | NotHttp11
  | NotWebSocketUpgrade
  | MissingConnectionUpgrade
  | UnsupportedWebSocketVersion
  | InvalidKey
  | OriginNotAllowed

/** @example methodNotGet('POST').status // 400 */
export const methodNotGet = (method: string): MethodNotGet => ({
  _tag: 'MethodNotGet',
  status: 400,
  headers: [],
  reason: 'a WebSocket upgrade must be a GET request',
  method,
})

/** @example notHttp11().status // 400 */
export const notHttp11 = (): NotHttp11 => ({
  _tag: 'NotHttp11',
  status: 400,
  headers: [],
  reason: 'a WebSocket upgrade needs HTTP/1.1',
})

/** @example notWebSocketUpgrade().status // 400 */
export const notWebSocketUpgrade = (): NotWebSocketUpgrade => ({
  _tag: 'NotWebSocketUpgrade',
  status: 400,
  headers: [],
  reason: 'the Upgrade header must name websocket',
})

/** @example missingConnectionUpgrade().status // 400 */
export const missingConnectionUpgrade = (): MissingConnectionUpgrade => ({
  _tag: 'MissingConnectionUpgrade',
  status: 400,
  headers: [],
  reason: 'the Connection header must name upgrade',
})

/** @example unsupportedWebSocketVersion().headers // [['Sec-WebSocket-Version', '13']] */
export const unsupportedWebSocketVersion = (): UnsupportedWebSocketVersion => ({
  _tag: 'UnsupportedVersion',
  status: 426,
  headers: [['Sec-WebSocket-Version', '13']],
  reason: 'only WebSocket version 13 is supported',
})

/** @example invalidKey().status // 400 */
export const invalidKey = (): InvalidKey => ({
  _tag: 'InvalidKey',
  status: 400,
  headers: [],
  reason: 'Sec-WebSocket-Key must be one 16-byte value in base64',
})

/** @example originNotAllowed('https://evil.example').status // 403 */
export const originNotAllowed = (origin: string): OriginNotAllowed => ({
  _tag: 'OriginNotAllowed',
  status: 403,
  headers: [],
  reason: 'origin not allowed',
  origin,
})

/**
 * A request received by a host's `node:http` server, as the engine reads requests: the
 * parsed `HttpRequest` value for the embedded dispatch (`httpRequestOf`), and the head's bytes
 * exactly as received (`rawHeadOf`, from `rawHeaders`) for an upgrade, which the engine parses
 * and decides like any other. Part of `attach` (lib/node/); imports the core and `node:*`.
 */
import type { IncomingMessage } from 'node:http'
import type { Header, HttpRequest } from '../core/http/types.js'

const NO_HEADERS: readonly Header[] = []

/** The request's header lines in arrival order, repeated names kept (from `rawHeaders`). */
export const headerLinesOf = (req: IncomingMessage): readonly Header[] => {
  const raw = req.rawHeaders
  if (raw.length === 0) return NO_HEADERS
  const lines: Header[] = []
  for (let i = 0; i + 1 < raw.length; i += 2) lines.push([raw[i] as string, raw[i + 1] as string])
  return lines
}

/** The path (still percent-encoded) and the raw query of a request-target. */
export const splitTarget = (target: string): { readonly path: string; readonly rawQuery: string } => {
  const q = target.indexOf('?')
  return q === -1 ? { path: target, rawQuery: '' } : { path: target.slice(0, q), rawQuery: target.slice(q + 1) }
}

/**
 * The `HttpRequest` of `req` with `body` (already read); the host keeps the connection, so
 * keep-alive is its business (HTTP/2 requests, through the compatibility API, read as HTTP/1.1).
 *
 * @example
 * const request = httpRequestOf(req, bytes)
 */
export const httpRequestOf = (req: IncomingMessage, body: Uint8Array): HttpRequest => {
  const target = req.url ?? '/'
  const { path, rawQuery } = splitTarget(target)
  return {
    method: req.method ?? 'GET',
    target,
    path,
    rawQuery,
    protocol: req.httpVersion === '1.0' ? 'HTTP/1.0' : 'HTTP/1.1',
    headers: headerLinesOf(req),
    trailers: NO_HEADERS,
    body,
    keepAlive: true,
    expectContinue: false,
  }
}

const encoder = new TextEncoder()

/**
 * The request head as it came on the wire: request line and header lines from `rawHeaders`
 * (names and values as received, in order), then the empty line.
 *
 * @example
 * rawHeadOf(req) // bytes of 'GET /ws HTTP/1.1\r\nHost: a\r\nUpgrade: websocket\r\n…\r\n\r\n'
 */
export const rawHeadOf = (req: IncomingMessage): Uint8Array => {
  let head = `${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/${req.httpVersion}\r\n`
  const raw = req.rawHeaders
  for (let i = 0; i + 1 < raw.length; i += 2) head += `${raw[i] as string}: ${raw[i + 1] as string}\r\n`
  return encoder.encode(`${head}\r\n`)
}

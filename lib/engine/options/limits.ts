/**
 * Every limit and time-out of the server, with its default. All are options of
 * `runServer` (DESIGN §5); docs/decisions.md says why each default is what it is.
 */

export interface Limits {
  /** Longest request line in bytes (414 past it). */
  readonly maxRequestLine: number
  /** Largest request head (request line + headers) in bytes (431 past it). */
  readonly maxHeaderBytes: number
  /** Most header lines in one request (431 past it). */
  readonly maxHeaders: number
  /** Largest request body in bytes (413 past it). */
  readonly maxBody: number
  /** Largest WebSocket frame payload in bytes (close 1009 past it). */
  readonly maxFramePayload: number
  /** Largest WebSocket message after reassembly, in bytes (close 1009 past it). */
  readonly maxMessage: number
  /** Most open connections; past it a new connection gets 503 and is closed. */
  readonly maxConnections: number
  /** Time for a request head to arrive once its first byte did (408 past it). */
  readonly headerTimeoutMs: number
  /** Time for a whole request (head and body) to arrive (408 past it). */
  readonly requestTimeoutMs: number
  /** Time an idle keep-alive HTTP connection stays open. */
  readonly keepAliveTimeoutMs: number
  /** Interval of WebSocket pings; a client that answered nothing since the last ping is dropped. */
  readonly heartbeatIntervalMs: number
  /** Time to wait for the client's answer to our close frame before ending the socket. */
  readonly closeTimeoutMs: number
  /** Bytes a client may have waiting to be sent; a new message past it disconnects the client. */
  readonly maxSendBuffer: number
  /** Time for a TLS handshake to complete once the connection is open (closed past it; TLS only). */
  readonly tlsHandshakeTimeoutMs: number
}

export const DEFAULT_LIMITS: Limits = {
  maxRequestLine: 8 * 1024,
  maxHeaderBytes: 16 * 1024,
  maxHeaders: 100,
  maxBody: 1024 * 1024,
  maxFramePayload: 16 * 1024 * 1024,
  maxMessage: 16 * 1024 * 1024,
  maxConnections: 100_000,
  headerTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 5_000,
  heartbeatIntervalMs: 30_000,
  closeTimeoutMs: 5_000,
  maxSendBuffer: 8 * 1024 * 1024,
  tlsHandshakeTimeoutMs: 10_000,
}

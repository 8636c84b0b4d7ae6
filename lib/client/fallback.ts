/**
 * `twinport/client/fallback`: what `twinport/client` needs to work without WebSocket, kept out
 * of `connect`'s bundle: `sseFallback`, `connect`'s `fallback` option (WebSocket first, Server-Sent
 * Events and `POST` when the upgrade cannot happen, and back), and `eventStreamSocket`, the
 * `WebSocket` stand-in over Server-Sent Events and `POST` it uses (docs/client.md, "Without WebSocket"). Imports the core's dependency-free SSE reader.
 */
export { type EventStreamLike, eventStreamSocket, type EventStreamSocketOptions, type StreamFetch } from './event-stream-socket.js'
export { sseFallback, type SseFallbackOptions } from './sse-fallback.js'

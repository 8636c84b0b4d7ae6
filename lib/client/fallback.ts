/**
 * `twinport/client/fallback`: what `twinport/client` needs to work without WebSocket, kept out
 * of `connect`'s bundle: `eventStreamSocket`, a `WebSocket` stand-in over Server-Sent Events
 * and `POST` (docs/client.md, "Without WebSocket"). Imports the core's dependency-free SSE reader.
 */
export { eventStreamSocket, type EventStreamSocketOptions, type StreamFetch } from './event-stream-socket.js'

/**
 * `Sec-WebSocket-Accept` with Node's native SHA-1 (RFC 6455 §4.2.2), injected into the
 * core's handshake validation: the same answer as the portable `acceptKey`, at a fraction
 * of the CPU and garbage per handshake. Part of the shared runtime layer (lib/runtime/): all three adapters use it (`node:crypto`
 * is in Bun and Deno too); imports the core and `node:*`, never an adapter.
 */
import * as crypto from 'node:crypto'
import { WEBSOCKET_GUID } from '../core/ws/accept-key.js'

// `crypto.hash` (Node ≥ 20.12 and 21.7) digests in one call, without the `Hash` object and its
// stream state that `createHash` makes: 1.0 against 2.7 µs of CPU per handshake here (issue 31,
// bench/RESULTS.md "Session 12: a million connections"). Where the runtime lacks it (older
// Bun and Deno), `createHash`.
type OneShot = (algorithm: string, data: string, encoding: 'base64') => string
const oneShot = (crypto as unknown as { hash?: OneShot }).hash

/** `Sec-WebSocket-Accept` for `key`, with the runtime's native SHA-1. */
export const nativeAcceptKey: (key: string) => string = oneShot === undefined
  ? (key) => crypto.createHash('sha1').update(key + WEBSOCKET_GUID).digest('base64')
  : (key) => oneShot('sha1', key + WEBSOCKET_GUID, 'base64')

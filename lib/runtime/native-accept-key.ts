/**
 * `Sec-WebSocket-Accept` with Node's native SHA-1 (RFC 6455 §4.2.2), injected into the
 * core's handshake validation: the same answer as the portable `acceptKey`, at a fraction
 * of the CPU and garbage per handshake. Part of the shared runtime layer (lib/runtime/): all three adapters use it (`node:crypto`
 * is in Bun and Deno too); imports the core and `node:*`, never an adapter.
 */
import { createHash } from 'node:crypto'
import { WEBSOCKET_GUID } from '../core/ws/accept-key.js'

export const nativeAcceptKey = (key: string): string =>
  createHash('sha1')
    .update(key + WEBSOCKET_GUID)
    .digest('base64')

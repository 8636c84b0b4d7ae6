/**
 * `receivedBytes`: the view of a chunk read from a socket that its client's receiver takes,
 * decided here so that an adapter never looks at a client's protocol. A runtime may read
 * into its own subclass of `Uint8Array` (Node's Buffer, on Node and on Deno's `node:net`).
 * A WebSocket connection takes the chunk as it is: its small frames are read in place, and it
 * makes its own plain view of whatever it keeps or decodes the general way (ws-connection.ts),
 * so the common chunk costs no view. An HTTP connection gets a plain `Uint8Array` view: the
 * subarrays it takes (request bodies among them) are then plain arrays, which handlers are
 * promised, and made without the subclass's slower override.
 *
 * Portable: no `node:*`, no `Buffer`.
 */
import type { Client } from './client.js'

/**
 * The bytes of `chunk` for `client`'s receiver: `chunk` itself for a WebSocket client, a
 * plain `Uint8Array` over the same memory for an HTTP one.
 *
 * @example
 * // The 'data' listener of a server on node:net (lib/runtime/serve-net.ts):
 * const client = engine.accept(socket)
 * if (client !== undefined) socket.on('data', (chunk: Buffer) => client.receiver.receive(receivedBytes(client, chunk)))
 * receivedBytes(httpClient, Buffer.from('GET /')) instanceof Buffer // false: a plain view of the same bytes
 * receivedBytes(wsClient, chunk) === chunk // true: the chunk as it is
 */
export const receivedBytes = (client: Client<unknown>, chunk: Uint8Array): Uint8Array =>
  client.type === 'ws' ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)

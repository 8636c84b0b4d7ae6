/**
 * What the Node adapter hands the engine for a chunk read from a socket. A WebSocket
 * connection takes the Buffer as it is: its small frames are read in place, and it makes its
 * own plain view of whatever it keeps or decodes the general way (lib/engine/ws-session.ts),
 * so the common chunk costs no view. An HTTP connection gets a plain `Uint8Array` view: the
 * subarrays it takes (request bodies among them) are then plain arrays, which handlers are
 * promised, and made without Buffer's slower override.
 */
import type { Buffer } from 'node:buffer'
import type { Client } from '../engine/client.js'

/**
 * The bytes of `chunk` for `client`'s receiver.
 *
 * @example
 * // The Node adapter's 'data' listener (lib/node/run-server.ts):
 * const client = engine.accept(socket)
 * if (client !== undefined) socket.on('data', (chunk: Buffer) => client.receiver.receive(socketBytes(client, chunk)))
 * socketBytes(httpClient, Buffer.from('GET /')) instanceof Buffer // false: a plain view of the same bytes
 * socketBytes(wsClient, chunk) === chunk // true: the Buffer as it is
 */
export const socketBytes = (client: Client<unknown>, chunk: Buffer): Uint8Array =>
  client.type === 'ws' ? chunk : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.length)

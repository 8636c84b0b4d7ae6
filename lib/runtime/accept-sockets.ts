/**
 * `acceptSockets`: hands `node:net` sockets to an engine, the same way whoever accepted them:
 * the server on `node:net` (serve-net.ts) for every connection, and `attach` (lib/node/) for
 * a WebSocket upgrade a host's `node:http` server received. Each socket's data, drain, end,
 * error and close go to the engine's record of it; the listeners are shared functions (one
 * set per engine), `this` is the socket.
 *
 * Part of the shared runtime layer (lib/runtime/): imports the engine and `node:*`, never
 * an adapter.
 */
import type { Socket } from 'node:net'
import type { Client } from '../engine/connection/client.js'
import { receivedBytes } from '../engine/connection/received-bytes.js'
import type { Engine } from '../engine/create-engine.js'

// The engine's record of a socket, kept on the socket so the listeners can be shared functions.
const CLIENT = Symbol('twinport.client')
type ClientSocket = Socket & { [CLIENT]?: Client<Socket> }

/**
 * The function that gives `engine` a socket: answers its client, or `undefined` when the
 * engine refused it (a 503 is on its way; the socket is read and dropped until the peer's
 * FIN, so it closes).
 *
 * @example
 * const accept = acceptSockets(engine)
 * const server = createServer({ noDelay: true, allowHalfOpen: true }, accept)
 */
export const acceptSockets = (engine: Engine<Socket>): ((socket: Socket) => Client<Socket> | undefined) => {
  const { logger } = engine
  const debug = engine.options.debug

  function onSocketData(this: ClientSocket, chunk: Buffer): void {
    const client = this[CLIENT]
    if (client !== undefined) client.receiver.receive(receivedBytes(client, chunk))
  }
  function onSocketDrain(this: ClientSocket): void {
    this[CLIENT]?.receiver.writable?.()
  }
  function onSocketEnd(this: ClientSocket): void {
    this[CLIENT]?.receiver.peerEnded()
  }
  function onSocketError(this: ClientSocket, error: Error): void {
    if (debug) logger.debug('socket error', { clientId: this[CLIENT]?.id, error: error.message })
  }
  function onSocketClose(this: ClientSocket): void {
    const client = this[CLIENT]
    if (client !== undefined) engine.closed(client)
  }

  return (socket: ClientSocket) => {
    const client = engine.accept(socket)
    if (client === undefined) {
      socket.on('error', () => undefined)
      socket.resume() // read (and drop) what the client sends, so its FIN is seen and the socket closes
      return undefined
    }
    socket.setNoDelay(true)
    socket[CLIENT] = client
    socket.on('data', onSocketData)
    socket.on('end', onSocketEnd)
    socket.on('drain', onSocketDrain)
    socket.on('error', onSocketError)
    socket.on('close', onSocketClose)
    return client
  }
}

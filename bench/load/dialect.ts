/**
 * How the load client talks to a server: plain WebSocket (twinport, ws), or
 * Socket.IO's own protocol over a WebSocket (engine.io v4 packets). Pure.
 */

/** Which behaviour of the contract a connection uses: echo, or the `/bcast` room. */
export type Room = 'echo' | 'bcast'

/** A protocol spoken over WebSocket frames. */
export interface Dialect {
  readonly name: 'ws' | 'socketio'
  /** request target of the upgrade. */
  readonly path: (room: Room) => string
  /** text to send once the first server frame arrived (the namespace connect), or none. */
  readonly greet: (room: Room) => string | undefined
  /** server frames that belong to the handshake, before the connection is usable. */
  readonly preambleFrames: number
  /** the text message carrying `payload` in this protocol. */
  readonly wrap: (room: Room, payload: string) => string
}

/** RFC 6455 as is: the DESIGN §4 contract (echo on any path, the room on `/bcast`). */
export const plainWs: Dialect = {
  name: 'ws',
  path: (room) => (room === 'bcast' ? '/bcast' : '/'),
  greet: () => undefined,
  preambleFrames: 0,
  wrap: (_room, payload) => payload,
}

/*
 * Socket.IO v4 over engine.io v4, WebSocket transport only: the server opens with
 * `0{...}`, the client joins a namespace with `40` (or `40/bcast,`), the server
 * answers `40{...}`; an event is `42["m",data]`. The bench server uses the default
 * namespace for echo and `/bcast` for the room.
 */
export const socketIo: Dialect = {
  name: 'socketio',
  path: () => '/socket.io/?EIO=4&transport=websocket',
  greet: (room) => (room === 'bcast' ? '40/bcast,' : '40'),
  preambleFrames: 2,
  wrap: (room, payload) => `42${room === 'bcast' ? '/bcast,' : ''}${JSON.stringify(['m', payload])}`,
}

/** The dialect of a name given on the command line. */
export const dialectOf = (name: string): Dialect | undefined =>
  name === 'ws' ? plainWs : name === 'socketio' ? socketIo : undefined

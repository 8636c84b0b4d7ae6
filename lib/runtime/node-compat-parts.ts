/**
 * The parts of a `Platform` that Node, Bun and Deno make alike, from the `node:*` modules all
 * three provide: the native SHA-1 for the WebSocket accept key, the console logger, `node:zlib`
 * for permessage-deflate and for HTTP (de)compression. Each adapter spreads these into its
 * platform and adds its own socket io, timers, frames, buffers and files. Part of the shared
 * runtime layer (lib/runtime/): imports the core, the engine and `node:*`, never an adapter.
 */
import type { Platform } from '../engine/platform.js'
import { createPerMessageDeflate } from './deflate/permessage-deflate.js'
import { createZlibHttpDecoder } from './compress/zlib-http-decoder.js'
import { createZlibHttpCodec } from './compress/zlib-http-codec.js'
import { createLogger } from './log/create-logger.js'
import { nativeAcceptKey } from './native-accept-key.js'

/** What a platform on Node's compatibility modules shares with the other runtimes. */
export type NodeCompatParts = Pick<Platform<unknown>, 'acceptKey' | 'defaultLogger' | 'deflate' | 'compression' | 'decompression'>

/**
 * The shared parts, frozen: spread them into a platform (`{ ...nodeCompatParts, io, timers, … }`).
 *
 * @example
 * const platform: Platform<Socket> = { ...nodeCompatParts, io, timers, frames, allocate, files }
 */
export const nodeCompatParts: NodeCompatParts = Object.freeze({
  acceptKey: nativeAcceptKey,
  defaultLogger: (debug: boolean) => createLogger({ minLevel: debug ? 'debug' : 'info' }),
  deflate: createPerMessageDeflate,
  compression: createZlibHttpCodec,
  decompression: createZlibHttpDecoder,
})

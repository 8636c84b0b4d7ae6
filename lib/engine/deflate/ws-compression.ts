/**
 * permessage-deflate for one server (RFC 7692), the engine's half: the answer to each
 * handshake's offers, the compression state of each connection that agreed, and the one
 * compression a broadcast shares. The pure core negotiates and frames; the runtime's codec
 * (`Platform.deflate`) compresses and inflates.
 * Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import { headerValue } from '../../core/http/header-value.js'
import { errorResponse } from '../../core/http/response.js'
import type { HttpRequest, Response } from '../../core/http/types.js'
import type { DeflateAgreement } from '../../core/ws/extensions/accept-deflate-offer.js'
import type { DeflateConfig } from '../../core/ws/extensions/deflate-config.js'
import type { DeflateParams } from '../../core/ws/extensions/deflate-params.js'
import type { DeflateCodec } from '../../core/ws/extensions/message-codec.js'
import type { InvalidExtensionsHeader } from '../../core/ws/extensions/extension-error.js'
import { type DeflateNegotiation, negotiateDeflate } from '../../core/ws/extensions/negotiate-deflate.js'
import type { FrameLimits } from '../../core/ws/frame.js'
import { compressFrame } from './compress-frame.js'
import { type DeflateHost, type DeflateShared, WsDeflate } from './ws-deflate.js'

/** A server's permessage-deflate, when it is on and the runtime has a codec. */
export interface WsCompression {
  /**
   * The handshake's answer to `Sec-WebSocket-Extensions`: `Right(agreement)`, or
   * `Right(undefined)` for none (no offer, or every offer declined: the connection goes on
   * without compression, RFC 7692 §5); `Left(400)` for a header that does not parse.
   */
  negotiate(request: HttpRequest, clientId: number): E.Either<Response, DeflateAgreement | undefined>
  /** The compression state of a connection whose handshake agreed on `params`. */
  attach(host: DeflateHost, params: DeflateParams): WsDeflate
  /** Frees the codec's zlib state once its pending jobs have settled (at shutdown). */
  close(): void
}

/** What the engine gives: the settings, the codec, its frame limits and its debug log. */
export interface WsCompressionDeps {
  readonly config: DeflateConfig
  readonly codec: DeflateCodec
  /** The server's frame limits; RSV1 is allowed on top of them. */
  readonly frameLimits: FrameLimits
  readonly debug: (message: string, context: Readonly<Record<string, unknown>>) => void
}

// Distinct Sec-WebSocket-Extensions headers whose outcome is kept.
const MAX_KEPT_OUTCOMES = 32

/**
 * @example
 * const compression = createWsCompression({ config, codec: createPerMessageDeflate(config), frameLimits, debug })
 * const answer = compression.negotiate(request, clientId) // Right(agreement): add agreement.header to the 101
 * connection.deflate = compression.attach(connection, agreement.params)
 */
export const createWsCompression = ({ config, codec, frameLimits, debug }: WsCompressionDeps): WsCompression => {
  // The broadcast being delivered, and its compressed frame per window. A broadcast hands
  // the same frame object to every receiver in one synchronous loop, so the frame itself
  // is the key; only the latest is kept.
  let broadcast: Uint8Array | undefined
  let byWindow: Array<Promise<Uint8Array> | undefined> = []
  const shared: DeflateShared = {
    threshold: config.threshold,
    frameLimits: { ...frameLimits, allowRsv1: true },
    compressor: (params) => codec.createCompressor(params),
    decompressor: (params) => codec.createDecompressor(params),
    broadcastFrame(frame, payloadAt, windowBits) {
      if (frame !== broadcast) {
        broadcast = frame
        byWindow = []
      }
      let compressed = byWindow[windowBits]
      if (compressed === undefined) {
        compressed = compressFrame(codec.sharedCompressor(windowBits), frame, payloadAt)
        byWindow[windowBits] = compressed
        // The cache lasts for the loop: let the frames go once they are written.
        void compressed.then(forget, forget)
      }
      return compressed
    },
  }
  const forget = (): void => {
    broadcast = undefined
    byWindow = []
  }
  // Clients of one kind send the very same header (Chromium: `permessage-deflate;
  // client_max_window_bits`): its outcome is kept, so a handshake allocates nothing for it
  // and its connections share one agreement. A few dozen distinct headers at most, so a
  // client sending a new one each time cannot grow the map.
  const outcomes = new Map<string, E.Either<InvalidExtensionsHeader, DeflateNegotiation>>()
  const negotiateOnce = (header: string | undefined): E.Either<InvalidExtensionsHeader, DeflateNegotiation> => {
    if (header === undefined) return negotiateDeflate(header, config)
    let outcome = outcomes.get(header)
    if (outcome === undefined) {
      outcome = negotiateDeflate(header, config)
      if (outcomes.size < MAX_KEPT_OUTCOMES) outcomes.set(header, outcome)
    }
    return outcome
  }
  // Agreements come in a handful of shapes: connections share one record per shape.
  const interned = new Map<string, DeflateParams>()
  const intern = (params: DeflateParams): DeflateParams => {
    const key = `${params.serverNoContextTakeover} ${params.clientNoContextTakeover} ${params.serverMaxWindowBits} ${params.clientMaxWindowBits}`
    let known = interned.get(key)
    if (known === undefined) interned.set(key, (known = params))
    return known
  }

  return {
    negotiate(request, clientId) {
      const negotiated = negotiateOnce(headerValue(request.headers, 'sec-websocket-extensions'))
      if (E.isLeft(negotiated)) {
        const { reason, offset, expected } = negotiated.left
        debug('websocket handshake refused', { clientId, status: 400, reason, offset, expected })
        return E.left(errorResponse(negotiated.left.status, reason))
      }
      for (const { offer, reason } of negotiated.right.declined) {
        debug('permessage-deflate offer declined', { clientId, offer: offer.params.map((p) => p.name).join(', '), reason: reason._tag })
      }
      return E.right(negotiated.right.agreement)
    },
    attach: (host, params) => new WsDeflate(host, intern(params), shared),
    close: () => codec.close(),
  }
}

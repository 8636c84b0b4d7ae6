/**
 * `negotiateDeflate`: the server's side of permessage-deflate negotiation (RFC 7692 §5, §7)
 * for one handshake: the client's `Sec-WebSocket-Extensions` in, the agreement (or none) out,
 * with the reason each declined offer was declined.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { type DeflateAgreement, PERMESSAGE_DEFLATE, acceptDeflateOffer } from './accept-deflate-offer.js'
import type { DeflateConfig } from './deflate-config.js'
import type { Extension } from './extension.js'
import type { DeclineReason, InvalidExtensionsHeader } from './extension-error.js'
import { parseExtensions } from './parse-extensions.js'

/** A permessage-deflate offer the server declined, and why. */
export interface DeclinedOffer {
  readonly offer: Extension
  readonly reason: DeclineReason
}

/** The outcome of a negotiation that did not fail. */
export interface DeflateNegotiation {
  /** The accepted offer, or `undefined`: the connection then runs without compression. */
  readonly agreement: DeflateAgreement | undefined
  /** The permessage-deflate offers declined before the accepted one (or all of them), in order. */
  readonly declined: readonly DeclinedOffer[]
}

const NONE: DeflateNegotiation = Object.freeze({ agreement: undefined, declined: [] })

/**
 * `header` is the request's `Sec-WebSocket-Extensions`, repeated lines joined with `, `
 * (`headerValue(request.headers, 'sec-websocket-extensions')`), or `undefined` when absent.
 *
 * - Compression off, or no header: no agreement (the header is not even parsed).
 * - A header that does not follow RFC 6455 §9.1: `Left`, a 400 refusal of the handshake.
 * - Otherwise the first permessage-deflate offer the server accepts, in the client's order
 *   of preference (RFC 7692 §5); other extensions are not supported and are ignored, so
 *   the answer names permessage-deflate alone and nothing else can claim RSV1.
 *
 * @example
 * negotiateDeflate('permessage-deflate; server_max_window_bits=16, permessage-deflate', config)
 * // Right({ agreement: { header: 'permessage-deflate; server_no_context_takeover', ... },
 * //         declined: [{ offer: ..., reason: { _tag: 'InvalidParameterValue', name: 'server_max_window_bits', value: '16' } }] })
 */
export const negotiateDeflate = (header: string | undefined, config: DeflateConfig): E.Either<InvalidExtensionsHeader, DeflateNegotiation> => {
  if (!config.enabled || header === undefined) return E.right(NONE)
  const parsed = parseExtensions(header)
  if (E.isLeft(parsed)) return parsed
  const declined: DeclinedOffer[] = []
  for (const offer of parsed.right) {
    if (offer.name !== PERMESSAGE_DEFLATE) continue
    const accepted = acceptDeflateOffer(offer, config)
    if (E.isRight(accepted)) return E.right({ agreement: accepted.right, declined })
    declined.push({ offer, reason: accepted.left })
  }
  return E.right({ agreement: undefined, declined })
}

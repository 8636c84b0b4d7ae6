/**
 * `acceptDeflateOffer`: one permessage-deflate offer (one alternative of the client's list)
 * checked against RFC 7692 §7 and the server's settings, giving the agreed parameters and
 * the answer, or why the offer is declined.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { DeflateConfig } from './deflate-config.js'
import type { DeflateParams } from './deflate-params.js'
import type { Extension, ExtensionParam } from './extension.js'
import {
  type DeclineReason,
  duplicateParameter,
  invalidParameterValue,
  unknownParameter,
  unsupportedOffer,
} from './extension-error.js'
import { formatExtension } from './format-extension.js'

/** The extension's registered name (RFC 7692 §7). */
export const PERMESSAGE_DEFLATE = 'permessage-deflate'

/** An accepted offer: what both sides use, and the answer for the 101 response. */
export interface DeflateAgreement {
  readonly params: DeflateParams
  /** The answer as a value. */
  readonly response: Extension
  /** The answer as `Sec-WebSocket-Extensions` text, e.g. `permessage-deflate; server_no_context_takeover`. */
  readonly header: string
}

// RFC 7692 §7.1.2.1/§7.1.2.2: "a decimal integer value without leading zeroes between 8 to
// 15, inclusive".
const WINDOW_BITS = /^(?:8|9|1[0-5])$/

const flag = (param: ExtensionParam): E.Either<DeclineReason, true> =>
  // §7.1.1.1/§7.1.1.2: "This extension parameter has no value."
  param.value === undefined ? E.right(true) : E.left(invalidParameterValue(param.name, param.value))

const windowBits = (param: ExtensionParam): E.Either<DeclineReason, number> =>
  param.value !== undefined && WINDOW_BITS.test(param.value) ? E.right(Number(param.value)) : E.left(invalidParameterValue(param.name, param.value))

// What the offer asks, each parameter once.
interface Offered {
  serverNoContextTakeover: boolean
  clientNoContextTakeover: boolean
  serverMaxWindowBits: number | undefined
  /** `null` when offered without a value, `undefined` when not offered. */
  clientMaxWindowBits: number | null | undefined
}

const readOffer = (params: readonly ExtensionParam[]): E.Either<DeclineReason, Offered> => {
  const offered: Offered = { serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: undefined, clientMaxWindowBits: undefined }
  const seen = new Set<string>()
  for (const param of params) {
    // §7: "The negotiation offer contains multiple extension parameters with the same name."
    if (seen.has(param.name)) return E.left(duplicateParameter(param.name))
    seen.add(param.name)
    switch (param.name) {
      case 'server_no_context_takeover': {
        const ok = flag(param)
        if (E.isLeft(ok)) return ok
        offered.serverNoContextTakeover = true
        break
      }
      case 'client_no_context_takeover': {
        const ok = flag(param)
        if (E.isLeft(ok)) return ok
        offered.clientNoContextTakeover = true
        break
      }
      case 'server_max_window_bits': {
        // §7.1.2.1: the value is required ("This parameter has a decimal integer value").
        const bits = windowBits(param)
        if (E.isLeft(bits)) return bits
        offered.serverMaxWindowBits = bits.right
        break
      }
      case 'client_max_window_bits': {
        // §7.1.2.2: "This parameter has no value or a decimal integer value".
        if (param.value === undefined) {
          offered.clientMaxWindowBits = null
          break
        }
        const bits = windowBits(param)
        if (E.isLeft(bits)) return bits
        offered.clientMaxWindowBits = bits.right
        break
      }
      default:
        // §7: "an extension parameter not defined for use in an offer".
        return E.left(unknownParameter(param.name))
    }
  }
  return E.right(offered)
}

const param = (name: string, value?: number): ExtensionParam => ({ name, value: value === undefined ? undefined : String(value) })

/**
 * Accepts `offer` (an element named `permessage-deflate`) or says why not (RFC 7692 §7: an
 * unknown parameter, a repeated one, a bad value, or a configuration the server does not
 * support). The answer (§7.1.1–§7.1.2):
 *
 * - `server_no_context_takeover` when the client asked for it or the server always uses it;
 * - `client_no_context_takeover` when the client announced it or the server wants it;
 * - `server_max_window_bits=N`, the smaller of the offer's and the server's, when the offer
 *   had one or the server's is under 15;
 * - `client_max_window_bits=N` only when the offer had the parameter (§7.1.2.2: "the
 *   corresponding extension negotiation response to the offer MUST NOT include" it
 *   otherwise), the smaller of the offer's value and the server's, when either is set.
 *   A server limited below 15 declines an offer without it.
 *
 * @example
 * acceptDeflateOffer({ name: 'permessage-deflate', params: [{ name: 'client_max_window_bits', value: undefined }] }, config)
 * // Right({ params: { serverNoContextTakeover: true, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15 },
 * //         header: 'permessage-deflate; server_no_context_takeover', ... })
 */
export const acceptDeflateOffer = (offer: Extension, config: DeflateConfig): E.Either<DeclineReason, DeflateAgreement> => {
  const read = readOffer(offer.params)
  if (E.isLeft(read)) return read
  const offered = read.right
  if (config.clientMaxWindowBits < 15 && offered.clientMaxWindowBits === undefined) {
    return E.left(unsupportedOffer('the server limits the client window and the offer has no client_max_window_bits'))
  }
  const params: DeflateParams = {
    serverNoContextTakeover: config.serverNoContextTakeover || offered.serverNoContextTakeover,
    clientNoContextTakeover: config.clientNoContextTakeover || offered.clientNoContextTakeover,
    serverMaxWindowBits: Math.min(config.serverMaxWindowBits, offered.serverMaxWindowBits ?? 15),
    clientMaxWindowBits: Math.min(config.clientMaxWindowBits, offered.clientMaxWindowBits ?? 15),
  }
  const answer: ExtensionParam[] = []
  if (params.serverNoContextTakeover) answer.push(param('server_no_context_takeover'))
  if (params.clientNoContextTakeover) answer.push(param('client_no_context_takeover'))
  if (offered.serverMaxWindowBits !== undefined || params.serverMaxWindowBits < 15) {
    answer.push(param('server_max_window_bits', params.serverMaxWindowBits))
  }
  if (offered.clientMaxWindowBits !== undefined && (offered.clientMaxWindowBits !== null || params.clientMaxWindowBits < 15)) {
    answer.push(param('client_max_window_bits', params.clientMaxWindowBits))
  }
  const response: Extension = { name: PERMESSAGE_DEFLATE, params: answer }
  return E.right({ params, response, header: formatExtension(response) })
}

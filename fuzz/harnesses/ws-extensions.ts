/**
 * Harness `ws-extensions`: extension negotiation (RFC 6455 §9.1, RFC 7692 §7). On any
 * `Sec-WebSocket-Extensions` text, `parseExtensions` gives the elements or a tagged error,
 * never a throw; parsed elements written back (`formatExtension`, joined with ", ") parse to
 * themselves; `acceptDeflateOffer` either declines with a reason or answers parameters
 * within RFC 7692's ranges (window bits 8-15, never above the server's, client bits only when
 * offered), whose header text parses back to the answer; `negotiateDeflate` agrees with
 * taking the first offer `acceptDeflateOffer` accepts.
 */
import * as E from 'fp-ts/lib/Either.js'
import { acceptDeflateOffer, PERMESSAGE_DEFLATE } from '../../lib/core/ws/extensions/accept-deflate-offer.js'
import { DEFAULT_DEFLATE_CONFIG, type DeflateConfig } from '../../lib/core/ws/extensions/deflate-config.js'
import { formatExtension } from '../../lib/core/ws/extensions/format-extension.js'
import { negotiateDeflate } from '../../lib/core/ws/extensions/negotiate-deflate.js'
import { parseExtensions } from '../../lib/core/ws/extensions/parse-extensions.js'
import { expect, latin1, plainBytes, same } from '../support/contract.js'

const CONFIGS: readonly DeflateConfig[] = [
  { ...DEFAULT_DEFLATE_CONFIG, enabled: true },
  { ...DEFAULT_DEFLATE_CONFIG, enabled: true, serverNoContextTakeover: false, clientNoContextTakeover: true, serverMaxWindowBits: 10, clientMaxWindowBits: 9 },
]

const inRange = (bits: number, max: number): boolean => Number.isInteger(bits) && bits >= 8 && bits <= max

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const text = latin1(data)
  const parsed = parseExtensions(text)
  if (E.isLeft(parsed)) {
    expect(typeof parsed.left._tag === 'string', 'a tagged error')
    for (const config of CONFIGS) expect(E.isLeft(negotiateDeflate(text, config)), 'negotiateDeflate refuses what parseExtensions refuses')
    return
  }
  const elements = parsed.right
  if (elements.length > 0) same(parseExtensions(elements.map(formatExtension).join(', ')), parsed, 'parse(format(extensions))')
  for (const config of CONFIGS) {
    let first: unknown
    for (const offer of elements) {
      if (offer.name.toLowerCase() !== PERMESSAGE_DEFLATE) continue
      const answer = acceptDeflateOffer(offer, config)
      if (E.isLeft(answer)) continue
      const p = answer.right.params
      expect(inRange(p.serverMaxWindowBits, config.serverMaxWindowBits), `server_max_window_bits ${p.serverMaxWindowBits}`)
      expect(inRange(p.clientMaxWindowBits, 15), `client_max_window_bits ${p.clientMaxWindowBits}`)
      expect(!config.serverNoContextTakeover || p.serverNoContextTakeover, 'server_no_context_takeover kept')
      const header = parseExtensions(answer.right.header)
      same(header, E.right([answer.right.response]), 'the answer header parses to the answer')
      const clientBits = answer.right.response.params.some((q) => q.name === 'client_max_window_bits')
      expect(!clientBits || offer.params.some((q) => q.name.toLowerCase() === 'client_max_window_bits'), 'client_max_window_bits only when offered')
      first ??= answer.right
    }
    const negotiated = negotiateDeflate(text, config)
    expect(E.isRight(negotiated), 'negotiateDeflate reads what parseExtensions reads')
    if (E.isRight(negotiated)) same(negotiated.right.agreement, first, 'negotiateDeflate takes the first accepted offer')
  }
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

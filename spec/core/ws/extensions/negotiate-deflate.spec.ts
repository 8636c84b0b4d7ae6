import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_DEFLATE_CONFIG, type DeflateConfig } from '../../../../lib/core/ws/extensions/deflate-config.js'
import type { DeflateParams } from '../../../../lib/core/ws/extensions/deflate-params.js'
import type { DeclineReason } from '../../../../lib/core/ws/extensions/extension-error.js'
import { type DeflateNegotiation, negotiateDeflate } from '../../../../lib/core/ws/extensions/negotiate-deflate.js'

// The defaults, turned on: server_no_context_takeover always answered.
const ON: DeflateConfig = { ...DEFAULT_DEFLATE_CONFIG, enabled: true }
// A server that keeps its window between messages, as the RFC's own examples assume.
const TAKEOVER: DeflateConfig = { ...ON, serverNoContextTakeover: false }

const negotiation = (header: string | undefined, config: DeflateConfig = ON): DeflateNegotiation => {
  const out = negotiateDeflate(header, config)
  if (E.isLeft(out)) throw new Error(`unexpected ${out.left._tag}`)
  return out.right
}

// The answer header, or undefined when every offer was declined.
const answer = (header: string | undefined, config: DeflateConfig = ON): string | undefined => negotiation(header, config).agreement?.header

const params = (header: string, config: DeflateConfig = ON): DeflateParams | undefined => negotiation(header, config).agreement?.params

// Every offer declined, with these reasons in order.
const declines = (header: string, reasons: readonly DeclineReason[], config: DeflateConfig = ON): void => {
  const out = negotiation(header, config)
  assert.is(out.agreement, undefined, `${header} must be declined`)
  assert.equal(
    out.declined.map((d) => d.reason),
    reasons,
  )
}

const PARAMS_15: DeflateParams = { serverNoContextTakeover: false, clientNoContextTakeover: false, serverMaxWindowBits: 15, clientMaxWindowBits: 15 }

// Acceptance.

test('negotiateDeflate :: a bare offer, answered with server_no_context_takeover by default', () => {
  assert.is(answer('permessage-deflate'), 'permessage-deflate; server_no_context_takeover')
  assert.equal(params('permessage-deflate'), { ...PARAMS_15, serverNoContextTakeover: true })
})

test('negotiateDeflate :: a bare offer to a server with context takeover: a bare answer', () => {
  assert.is(answer('permessage-deflate', TAKEOVER), 'permessage-deflate')
  assert.equal(params('permessage-deflate', TAKEOVER), PARAMS_15)
})

test('negotiateDeflate :: Chromium\'s offer (client_max_window_bits without a value)', () => {
  // RFC 7692 §7.1.2.2: without a value the parameter only says the client supports it; the
  // server need not answer it, and here has no reason to.
  assert.is(answer('permessage-deflate; client_max_window_bits'), 'permessage-deflate; server_no_context_takeover')
  assert.equal(params('permessage-deflate; client_max_window_bits'), { ...PARAMS_15, serverNoContextTakeover: true })
})

test('negotiateDeflate :: server_no_context_takeover offered is answered (RFC 7692 §7.1.1.1)', () => {
  // "A server accepts an extension negotiation offer that includes the
  // "server_no_context_takeover" extension parameter by including the
  // "server_no_context_takeover" extension parameter in the corresponding extension
  // negotiation response".
  assert.is(answer('permessage-deflate; server_no_context_takeover', TAKEOVER), 'permessage-deflate; server_no_context_takeover')
  assert.equal(params('permessage-deflate; server_no_context_takeover', TAKEOVER), { ...PARAMS_15, serverNoContextTakeover: true })
})

test('negotiateDeflate :: client_no_context_takeover offered is echoed and used (RFC 7692 §7.1.1.2)', () => {
  assert.is(answer('permessage-deflate; client_no_context_takeover', TAKEOVER), 'permessage-deflate; client_no_context_takeover')
  assert.equal(params('permessage-deflate; client_no_context_takeover', TAKEOVER), { ...PARAMS_15, clientNoContextTakeover: true })
})

test('negotiateDeflate :: a server that wants client_no_context_takeover answers it unasked', () => {
  // §7.1.1.2: "A server MAY include the "client_no_context_takeover" extension parameter in
  // an extension negotiation response."
  const config = { ...ON, clientNoContextTakeover: true }
  assert.is(answer('permessage-deflate', config), 'permessage-deflate; server_no_context_takeover; client_no_context_takeover')
})

test('negotiateDeflate :: server_max_window_bits offered: the same or a smaller value (RFC 7692 §7.1.2.1)', () => {
  // "A server accepts an extension negotiation offer with this parameter by including the
  // "server_max_window_bits" extension parameter in the extension negotiation response to
  // send back to the client with the same or smaller value as the offer."
  assert.is(answer('permessage-deflate; server_max_window_bits=10', TAKEOVER), 'permessage-deflate; server_max_window_bits=10')
  assert.is(answer('permessage-deflate; server_max_window_bits=15', TAKEOVER), 'permessage-deflate; server_max_window_bits=15')
  assert.is(answer('permessage-deflate; server_max_window_bits=8', TAKEOVER), 'permessage-deflate; server_max_window_bits=8')
  const smaller = { ...TAKEOVER, serverMaxWindowBits: 9 }
  assert.is(answer('permessage-deflate; server_max_window_bits=12', smaller), 'permessage-deflate; server_max_window_bits=9')
  assert.equal(params('permessage-deflate; server_max_window_bits=12', smaller), { ...PARAMS_15, serverMaxWindowBits: 9 })
})

test('negotiateDeflate :: a server with a smaller window answers it unasked (RFC 7692 §7.1.2.1)', () => {
  // "A server MAY include the "server_max_window_bits" extension parameter in an extension
  // negotiation response even if the extension negotiation offer being accepted by the
  // response didn't include the "server_max_window_bits" extension parameter."
  assert.is(answer('permessage-deflate', { ...TAKEOVER, serverMaxWindowBits: 11 }), 'permessage-deflate; server_max_window_bits=11')
})

test('negotiateDeflate :: client_max_window_bits with a value is echoed, the smaller of the two (RFC 7692 §7.1.2.2)', () => {
  assert.is(answer('permessage-deflate; client_max_window_bits=10', TAKEOVER), 'permessage-deflate; client_max_window_bits=10')
  assert.equal(params('permessage-deflate; client_max_window_bits=10', TAKEOVER), { ...PARAMS_15, clientMaxWindowBits: 10 })
  const limited = { ...TAKEOVER, clientMaxWindowBits: 9 }
  assert.is(answer('permessage-deflate; client_max_window_bits=12', limited), 'permessage-deflate; client_max_window_bits=9')
  assert.is(answer('permessage-deflate; client_max_window_bits', limited), 'permessage-deflate; client_max_window_bits=9')
  assert.equal(params('permessage-deflate; client_max_window_bits', limited), { ...PARAMS_15, clientMaxWindowBits: 9 })
})

test('negotiateDeflate :: client_max_window_bits never answered when not offered (RFC 7692 §7.1.2.2)', () => {
  // "If a received extension negotiation offer doesn't have the "client_max_window_bits"
  // extension parameter, the corresponding extension negotiation response to the offer
  // MUST NOT include the "client_max_window_bits" extension parameter."
  assert.is(answer('permessage-deflate', TAKEOVER), 'permessage-deflate')
  assert.is(answer('permessage-deflate; server_max_window_bits=10', TAKEOVER), 'permessage-deflate; server_max_window_bits=10')
})

test('negotiateDeflate :: every parameter at once, answered in a fixed order', () => {
  const header = 'permessage-deflate; client_max_window_bits=12; server_max_window_bits=11; client_no_context_takeover; server_no_context_takeover'
  assert.is(
    answer(header, TAKEOVER),
    'permessage-deflate; server_no_context_takeover; client_no_context_takeover; server_max_window_bits=11; client_max_window_bits=12',
  )
  assert.equal(params(header, TAKEOVER), { serverNoContextTakeover: true, clientNoContextTakeover: true, serverMaxWindowBits: 11, clientMaxWindowBits: 12 })
})

test('negotiateDeflate :: a quoted value counts as the token inside (RFC 6455 §9.1)', () => {
  assert.is(answer('permessage-deflate; server_max_window_bits="10"', TAKEOVER), 'permessage-deflate; server_max_window_bits=10')
})

test('negotiateDeflate :: the first acceptable alternative wins (RFC 7692 §5)', () => {
  // "The order of elements is important as it specifies the client's preference."
  const out = negotiation('permessage-deflate; server_max_window_bits=10, permessage-deflate', TAKEOVER)
  assert.is(out.agreement?.header, 'permessage-deflate; server_max_window_bits=10')
  assert.equal(out.declined, [])
  const second = negotiation('permessage-deflate; server_max_window_bits=7, permessage-deflate; client_no_context_takeover, permessage-deflate', TAKEOVER)
  assert.is(second.agreement?.header, 'permessage-deflate; client_no_context_takeover')
  assert.equal(second.declined.map((d) => d.reason._tag), ['InvalidParameterValue'])
  assert.equal(second.declined[0]?.offer, { name: 'permessage-deflate', params: [{ name: 'server_max_window_bits', value: '7' }] })
})

test('negotiateDeflate :: other extensions are ignored, and never answered', () => {
  assert.is(answer('x-webkit-deflate-frame, permessage-deflate; client_max_window_bits, foo'), 'permessage-deflate; server_no_context_takeover')
  assert.equal(negotiation('x-webkit-deflate-frame; no_context_takeover'), { agreement: undefined, declined: [] })
})

test('negotiateDeflate :: the agreement carries the answer as a value too', () => {
  const agreement = negotiation('permessage-deflate; server_max_window_bits=10', TAKEOVER).agreement
  assert.equal(agreement?.response, { name: 'permessage-deflate', params: [{ name: 'server_max_window_bits', value: '10' }] })
})

// No negotiation at all.

test('negotiateDeflate :: no header, or compression off: no agreement, nothing parsed', () => {
  assert.equal(negotiation(undefined), { agreement: undefined, declined: [] })
  assert.equal(negotiation('permessage-deflate', DEFAULT_DEFLATE_CONFIG), { agreement: undefined, declined: [] })
  // Off means the header is not even read: a malformed one changes nothing.
  assert.equal(negotiateDeflate('permessage-deflate;;', DEFAULT_DEFLATE_CONFIG), E.right({ agreement: undefined, declined: [] }))
  assert.equal(negotiation(''), { agreement: undefined, declined: [] })
})

test('negotiateDeflate :: a malformed header refuses the handshake with 400', () => {
  const out = negotiateDeflate('permessage-deflate; server_max_window_bits=', ON)
  assert.ok(E.isLeft(out))
  if (E.isLeft(out)) assert.equal([out.left._tag, out.left.status, out.left.headers], ['InvalidExtensionsHeader', 400, []])
})

// Every way an offer is declined (RFC 7692 §7): "A server MUST decline an extension
// negotiation offer for this extension if any of the following conditions are met".

test('negotiateDeflate :: declines an unknown parameter (RFC 7692 §7)', () => {
  // "The negotiation offer contains an extension parameter not defined for use in an offer."
  declines('permessage-deflate; foo', [{ _tag: 'UnknownParameter', name: 'foo' }])
  declines('permessage-deflate; Server_No_Context_Takeover', [{ _tag: 'UnknownParameter', name: 'Server_No_Context_Takeover' }])
  declines('permessage-deflate; no_context_takeover=1', [{ _tag: 'UnknownParameter', name: 'no_context_takeover' }])
})

test('negotiateDeflate :: declines a repeated parameter (RFC 7692 §7)', () => {
  // "The negotiation offer contains multiple extension parameters with the same name."
  declines('permessage-deflate; server_no_context_takeover; server_no_context_takeover', [{ _tag: 'DuplicateParameter', name: 'server_no_context_takeover' }])
  declines('permessage-deflate; client_no_context_takeover; client_no_context_takeover', [{ _tag: 'DuplicateParameter', name: 'client_no_context_takeover' }])
  declines('permessage-deflate; server_max_window_bits=10; server_max_window_bits=10', [{ _tag: 'DuplicateParameter', name: 'server_max_window_bits' }])
  declines('permessage-deflate; client_max_window_bits; client_max_window_bits=10', [{ _tag: 'DuplicateParameter', name: 'client_max_window_bits' }])
})

test('negotiateDeflate :: declines a value on a parameter that has none (RFC 7692 §7.1.1)', () => {
  // §7.1.1.1 and §7.1.1.2: "This extension parameter has no value."
  declines('permessage-deflate; server_no_context_takeover=true', [{ _tag: 'InvalidParameterValue', name: 'server_no_context_takeover', value: 'true' }])
  declines('permessage-deflate; client_no_context_takeover="1"', [{ _tag: 'InvalidParameterValue', name: 'client_no_context_takeover', value: '1' }])
})

test('negotiateDeflate :: declines server_max_window_bits without a value (RFC 7692 §7.1.2.1)', () => {
  // "This parameter has a decimal integer value without leading zeroes between 8 to 15".
  declines('permessage-deflate; server_max_window_bits', [{ _tag: 'InvalidParameterValue', name: 'server_max_window_bits', value: undefined }])
})

test('negotiateDeflate :: declines window bits out of 8..15, with leading zeroes, or not decimal (RFC 7692 §7.1.2)', () => {
  for (const value of ['7', '16', '0', '08', '010', '-9', '+9', '9.0', '1e1', 'a', '15a', '99999999999999999999']) {
    for (const name of ['server_max_window_bits', 'client_max_window_bits']) {
      declines(`permessage-deflate; ${name}=${value}`, [{ _tag: 'InvalidParameterValue', name, value }])
    }
  }
})

test('negotiateDeflate :: declines every offer when none is acceptable, each with its reason', () => {
  declines('permessage-deflate; a, permessage-deflate; server_max_window_bits=16, permessage-deflate; server_no_context_takeover; server_no_context_takeover', [
    { _tag: 'UnknownParameter', name: 'a' },
    { _tag: 'InvalidParameterValue', name: 'server_max_window_bits', value: '16' },
    { _tag: 'DuplicateParameter', name: 'server_no_context_takeover' },
  ])
})

test('negotiateDeflate :: a server limiting the client window declines an offer that cannot take the limit (RFC 7692 §7)', () => {
  // "The server doesn't support the offered configuration": without client_max_window_bits
  // in the offer the answer may not carry it (§7.1.2.2), so the limit cannot be agreed.
  const limited = { ...ON, clientMaxWindowBits: 10 }
  declines('permessage-deflate', [{ _tag: 'UnsupportedOffer', reason: 'the server limits the client window and the offer has no client_max_window_bits' }], limited)
  assert.is(answer('permessage-deflate, permessage-deflate; client_max_window_bits', limited), 'permessage-deflate; server_no_context_takeover; client_max_window_bits=10')
})

test.run()

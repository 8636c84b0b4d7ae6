/**
 * Harness `envelope`: the event envelope (DESIGN §3) and batch splitting. `decodeEnvelope` on
 * any text gives an event message or an error event with its code, never a throw; its fast
 * path (the shared wire rule `envelopeFault`) and the io-ts codec `EventEnvelope` accept the
 * same values and give the same message (differential); an accepted message encodes
 * (`encodeEvent`) to text that decodes to itself; `decodeEnvelopes` with batches splits on RS
 * and reads each piece as `decodeEnvelope` does, and without batches is one `decodeEnvelope`.
 */
import * as E from 'fp-ts/lib/Either.js'
import { BATCH_SEPARATOR, decodeEnvelope, decodeEnvelopes, encodeEvent, EventEnvelope } from '../../lib/core/ws/envelope.js'
import { envelopeFault } from '../../lib/core/ws/envelope-wire.js'
import { expect, plainBytes, same, utf8 } from '../support/contract.js'

const CODES = new Set(['invalid_json', 'invalid_message'])

const checkOne = (text: string): void => {
  const decoded = decodeEnvelope(text)
  if (E.isLeft(decoded)) {
    expect(CODES.has(decoded.left.code), `error code ${decoded.left.code}`)
    return
  }
  const msg = decoded.right
  expect(typeof msg.event === 'string' && msg.event.length > 0, 'event is a non-empty string')
  same(decodeEnvelope(encodeEvent(msg)), E.right(msg), 'decodeEnvelope(encodeEvent(m))')
}

const checkCodec = (text: string): void => {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return
  }
  const viaCodec = EventEnvelope.decode(value)
  const viaText = decodeEnvelope(text)
  expect(E.isRight(viaCodec) === E.isRight(viaText), 'EventEnvelope and decodeEnvelope accept alike')
  expect((envelopeFault(value, false) === '') === E.isRight(viaText), 'envelopeFault and decodeEnvelope accept alike')
  if (E.isRight(viaCodec) && E.isRight(viaText)) same(viaText.right, viaCodec.right, 'decodeEnvelope vs EventEnvelope')
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const text = utf8(data)
  checkOne(text)
  checkCodec(text)
  same(decodeEnvelopes(text, false), [decodeEnvelope(text)], 'decodeEnvelopes without batches')
  const batch = decodeEnvelopes(text, true)
  const pieces = text.includes(BATCH_SEPARATOR) ? text.split(BATCH_SEPARATOR) : [text]
  same(batch, pieces.map((piece) => decodeEnvelope(piece)), 'decodeEnvelopes with batches')
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

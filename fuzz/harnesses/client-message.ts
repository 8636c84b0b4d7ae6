/**
 * Harness `client-message`: the client's reader of server messages
 * (lib/client/read-server-message.ts). On any text and limit it answers a message or a
 * problem, never a throw; "too big" exactly when the text is over the limit in UTF-8 bytes;
 * a message has the shape the shared wire rule promises (non-empty event, string or number
 * id, positive safe-integer seq) and agrees with the server's `decodeEnvelope` on event, data
 * and id; binary data is a `BinaryMessage` with its size.
 */
import * as E from 'fp-ts/lib/Either.js'
import { readServerMessage } from '../../lib/client/read-server-message.js'
import { decodeEnvelope } from '../../lib/core/ws/envelope.js'
import { expect, plainBytes, same, utf8 } from '../support/contract.js'

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const text = utf8(data.subarray(1))
  const bytes = new TextEncoder().encode(text).length
  for (const limit of [data[0] ?? 0, (data[0] ?? 0) * 3, 1 << 20]) {
    const answer = readServerMessage(text, limit)
    expect((answer._tag === 'MessageTooBig') === bytes > limit, `too big at ${bytes} bytes for ${limit}`)
    if (answer._tag === 'MessageTooBig') expect(answer.size > limit && answer.size <= bytes, 'the size reported')
    if (answer._tag !== 'ServerMessage') continue
    expect(typeof answer.event === 'string' && answer.event !== '', 'event')
    expect(answer.id === undefined || typeof answer.id === 'string' || typeof answer.id === 'number', 'id')
    expect(answer.seq === undefined || (Number.isSafeInteger(answer.seq) && answer.seq > 0), 'seq')
    const server = decodeEnvelope(text)
    expect(E.isRight(server), 'the server reads what the client reads')
    if (E.isRight(server)) same({ event: answer.event, data: answer.data, id: answer.id }, { event: server.right.event, data: server.right.data, id: server.right.id }, 'client vs server reading')
  }
  const binary = readServerMessage(data.buffer.slice(data.byteOffset, data.byteOffset + data.length), 10)
  expect(binary._tag === 'BinaryMessage' && binary.size === data.length, 'binary data')
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

/**
 * `inflatedMessage`: the last step of receiving a compressed message. Assembly hands out a
 * `Compressed` value; the shell inflates its payload (RFC 7692 §7.2.2) and gives the bytes
 * here, where a text message gets the UTF-8 check it could not have before (RFC 6455 §8.1).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Binary, Compressed, Text } from '../assemble-message.js'
import { OPCODE } from '../frame.js'
import { decodeUtf8 } from '../utf8.js'
import { invalidUtf8, type InvalidUtf8 } from '../ws-error.js'

/**
 * The message `compressed` was, given its inflated bytes: `Text` (or `Left(InvalidUtf8)`,
 * close code 1007) or `Binary` (the bytes themselves).
 *
 * @example
 * inflatedMessage({ _tag: 'Compressed', opcode: OPCODE.TEXT, data }, new TextEncoder().encode('Hello'))
 * // Right({ _tag: 'Text', text: 'Hello' })
 */
export const inflatedMessage = (compressed: Compressed, bytes: Uint8Array): E.Either<InvalidUtf8, Text | Binary> => {
  if (compressed.opcode === OPCODE.BINARY) return E.right({ _tag: 'Binary', data: bytes })
  const text = decodeUtf8(bytes)
  return text === undefined ? E.left(invalidUtf8('text')) : E.right({ _tag: 'Text', text })
}

import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { inflatedMessage } from '../../../../lib/core/ws/extensions/inflated-message.js'
import { OPCODE } from '../../../../lib/core/ws/frame.js'
import { hex, utf8 } from '../hex.js'

const COMPRESSED_TEXT = { _tag: 'Compressed', opcode: OPCODE.TEXT, data: hex('f2 48 cd c9 c9 07 00') } as const
const COMPRESSED_BINARY = { _tag: 'Compressed', opcode: OPCODE.BINARY, data: hex('62 64 02 00') } as const

test('inflatedMessage :: inflated text that is UTF-8 is the text', () => {
  assert.equal(inflatedMessage(COMPRESSED_TEXT, utf8('Hello')), E.right({ _tag: 'Text', text: 'Hello' }))
  assert.equal(inflatedMessage(COMPRESSED_TEXT, utf8('')), E.right({ _tag: 'Text', text: '' }))
  assert.equal(inflatedMessage(COMPRESSED_TEXT, utf8('κόσμε')), E.right({ _tag: 'Text', text: 'κόσμε' }))
})

test('inflatedMessage :: inflated text that is not UTF-8 closes with 1007 (RFC 6455 §8.1)', () => {
  const out = inflatedMessage(COMPRESSED_TEXT, hex('48 65 ff'))
  assert.equal(out, E.left({ _tag: 'InvalidUtf8', where: 'text', closeCode: 1007, reason: 'invalid UTF-8 in text message' }))
  assert.ok(E.isLeft(inflatedMessage(COMPRESSED_TEXT, hex('e2 82'))), 'a code point cut at the end')
})

test('inflatedMessage :: inflated binary is the bytes themselves, whatever they are', () => {
  const bytes = hex('01 02 ff')
  const out = inflatedMessage(COMPRESSED_BINARY, bytes)
  assert.ok(E.isRight(out) && out.right._tag === 'Binary' && out.right.data === bytes)
})

test.run()

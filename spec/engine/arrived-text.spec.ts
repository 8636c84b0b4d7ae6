import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { RawMessage } from '../../lib/core/route/raw-message.js'
import { ArrivedText } from '../../lib/engine/arrived-text.js'

const hex = (bytes: Uint8Array): string => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join(' ')

test('ArrivedText :: the text of its bytes, read where they lie (a frame header before them)', () => {
  const message: RawMessage = new ArrivedText(Uint8Array.of(0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f, 0xff), 2, 5, undefined)
  assert.is(message._tag, 'Text')
  assert.is(message._tag === 'Text' && message.text, 'Hello')
})

test('ArrivedText :: a leading BOM, 2-, 3- and 4-byte characters are kept as they are', () => {
  const text = '\uFEFFé€😀'
  const bytes = new TextEncoder().encode(text)
  assert.is(new ArrivedText(bytes, 0, bytes.length, undefined).text, text)
})

test('ArrivedText :: a text decoded by the UTF-8 check is kept, not decoded again', () => {
  const bytes = Uint8Array.of(0x61)
  const message = new ArrivedText(bytes, 0, 1, 'a')
  bytes[0] = 0x62 // the caller promises never to do this; here it shows the text is not read again
  assert.is(message.text, 'a')
})

test('ArrivedText :: decoded once, on the first read', () => {
  const bytes = Uint8Array.of(0x61, 0x62)
  const message = new ArrivedText(bytes, 0, 2, undefined)
  assert.is(message.text, 'ab')
  bytes[0] = 0x7a
  assert.is(message.text, 'ab')
})

test('ArrivedText :: serialized as a plain text message; its payload is a view of its bytes', () => {
  const bytes = Uint8Array.of(0x00, 0x68, 0x69)
  const message = new ArrivedText(bytes, 1, 2, undefined)
  assert.is(JSON.stringify(message), '{"_tag":"Text","text":"hi"}')
  assert.is(hex(message.payload()), '68 69')
  assert.is(message.payload().buffer, bytes.buffer)
  assert.equal(Object.keys(message), ['_tag'])
})

test.run()

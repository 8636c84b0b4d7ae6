import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatExtension } from '../../../../lib/core/ws/extensions/format-extension.js'

test('formatExtension :: a name alone', () => {
  assert.is(formatExtension({ name: 'permessage-deflate', params: [] }), 'permessage-deflate')
})

test('formatExtension :: parameters with and without values, in order', () => {
  assert.is(
    formatExtension({
      name: 'permessage-deflate',
      params: [
        { name: 'server_no_context_takeover', value: undefined },
        { name: 'server_max_window_bits', value: '10' },
      ],
    }),
    'permessage-deflate; server_no_context_takeover; server_max_window_bits=10',
  )
})

test('formatExtension :: a value that is not a token is quoted, with " and \\ escaped', () => {
  assert.is(formatExtension({ name: 'x', params: [{ name: 'a', value: 'b c' }] }), 'x; a="b c"')
  assert.is(formatExtension({ name: 'x', params: [{ name: 'a', value: 'q"\\' }] }), 'x; a="q\\"\\\\"')
  assert.is(formatExtension({ name: 'x', params: [{ name: 'a', value: '' }] }), 'x; a=""')
  assert.is(formatExtension({ name: 'x', params: [{ name: 'a', value: '\u0100' }] }), 'x; a="\u0100"')
})

test.run()

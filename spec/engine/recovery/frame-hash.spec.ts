import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { frameHash } from '../../../lib/engine/recovery/frame-hash.js'

test('frameHash :: FNV-1a 32 of the bytes (the published test vectors)', () => {
  assert.is(frameHash(new Uint8Array(0)), 0x811c9dc5)
  assert.is(frameHash(new TextEncoder().encode('a')), 0xe40c292c)
  assert.is(frameHash(new TextEncoder().encode('foobar')), 0xbf9cf968)
})

test.run()

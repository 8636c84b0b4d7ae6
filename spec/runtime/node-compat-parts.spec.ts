import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { nodeCompatParts } from '../../lib/runtime/node-compat-parts.js'
import { nodePlatform } from '../../lib/runtime/node-platform.js'
import { createPerMessageDeflate } from '../../lib/runtime/deflate/permessage-deflate.js'
import { createZlibHttpCodec } from '../../lib/runtime/compress/zlib-http-codec.js'
import { createZlibHttpDecoder } from '../../lib/runtime/compress/zlib-http-decoder.js'

test('nodeCompatParts :: the accept key is RFC 6455 §1.3 example and the codecs are node:zlib', () => {
  assert.is(nodeCompatParts.acceptKey?.('dGhlIHNhbXBsZSBub25jZQ=='), 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
  assert.is(nodeCompatParts.deflate, createPerMessageDeflate)
  assert.is(nodeCompatParts.compression, createZlibHttpCodec)
  assert.is(nodeCompatParts.decompression, createZlibHttpDecoder)
})

test('nodeCompatParts :: frozen, so no adapter can change what another spreads', () => {
  assert.ok(Object.isFrozen(nodeCompatParts))
})

test('nodeCompatParts :: the Node platform is built on them', () => {
  for (const key of ['acceptKey', 'defaultLogger', 'deflate', 'compression', 'decompression'] as const) {
    assert.is(nodePlatform[key], nodeCompatParts[key], key)
  }
})

test.run()

import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { DEFAULT_DEFLATE_CONFIG, type DeflateOptions } from '../../../../lib/core/ws/extensions/deflate-config.js'
import { resolveDeflateConfig } from '../../../../lib/core/ws/extensions/resolve-deflate-config.js'

const ON = { ...DEFAULT_DEFLATE_CONFIG, enabled: true }

const rejects = (options: DeflateOptions, option: string, expected: string): void => {
  const out = resolveDeflateConfig(options)
  if (E.isRight(out)) throw new Error(`expected ${JSON.stringify(options)} to be refused`)
  assert.equal([out.left._tag, out.left.option, out.left.expected], ['InvalidDeflateOption', option, expected])
}

test('resolveDeflateConfig :: the defaults: off, server_no_context_takeover, 1 KiB threshold, zlib\'s level and memLevel, 10 jobs', () => {
  assert.equal(DEFAULT_DEFLATE_CONFIG, {
    enabled: false,
    serverNoContextTakeover: true,
    clientNoContextTakeover: false,
    serverMaxWindowBits: 15,
    clientMaxWindowBits: 15,
    threshold: 1024,
    level: 6,
    memLevel: 8,
    concurrency: 10,
  })
})

test('resolveDeflateConfig :: undefined and false are off, true is on with the defaults', () => {
  assert.equal(resolveDeflateConfig(undefined), E.right(DEFAULT_DEFLATE_CONFIG))
  assert.equal(resolveDeflateConfig(false), E.right(DEFAULT_DEFLATE_CONFIG))
  assert.equal(resolveDeflateConfig(true), E.right(ON))
})

test('resolveDeflateConfig :: an object is on unless it says otherwise, its fields over the defaults', () => {
  assert.equal(resolveDeflateConfig({}), E.right(ON))
  assert.equal(resolveDeflateConfig({ threshold: 0, memLevel: 9, serverMaxWindowBits: 8 }), E.right({ ...ON, threshold: 0, memLevel: 9, serverMaxWindowBits: 8 }))
  assert.equal(resolveDeflateConfig({ enabled: false, level: 1 }), E.right({ ...DEFAULT_DEFLATE_CONFIG, level: 1 }))
  assert.equal(resolveDeflateConfig({ concurrency: Infinity }), E.right({ ...ON, concurrency: Infinity }))
})

test('resolveDeflateConfig :: a field set to undefined takes its default', () => {
  assert.equal(resolveDeflateConfig({ threshold: undefined }), E.right(ON))
})

test('resolveDeflateConfig :: refuses window bits outside 8..15 (RFC 7692 §7.1.2)', () => {
  rejects({ serverMaxWindowBits: 7 }, 'serverMaxWindowBits', 'an integer from 8 to 15')
  rejects({ serverMaxWindowBits: 16 }, 'serverMaxWindowBits', 'an integer from 8 to 15')
  rejects({ clientMaxWindowBits: 9.5 }, 'clientMaxWindowBits', 'an integer from 8 to 15')
})

test('resolveDeflateConfig :: refuses every other number out of range', () => {
  rejects({ threshold: -1 }, 'threshold', 'an integer of 0 or more')
  rejects({ threshold: NaN }, 'threshold', 'an integer of 0 or more')
  rejects({ level: 10 }, 'level', 'an integer from 0 to 9')
  rejects({ memLevel: 0 }, 'memLevel', 'an integer from 1 to 9')
  rejects({ memLevel: 10 }, 'memLevel', 'an integer from 1 to 9')
  rejects({ concurrency: 0 }, 'concurrency', 'an integer of 1 or more, or Infinity')
  rejects({ concurrency: 1.5 }, 'concurrency', 'an integer of 1 or more, or Infinity')
})

test('resolveDeflateConfig :: refuses a value of the wrong type, and an unknown option', () => {
  rejects({ threshold: '10' as unknown as number }, 'threshold', 'an integer of 0 or more')
  rejects({ serverNoContextTakeover: 'yes' as unknown as boolean }, 'serverNoContextTakeover', 'true or false')
  rejects({ treshold: 10 } as DeflateOptions, 'treshold', 'a known option')
})

test.run()

import { DEFAULT_COMPRESS_CONFIG } from '../../../lib/core/http/compress/compress-config.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as E from 'fp-ts/lib/Either.js'
import { memoryRecoveryStore } from '../../support/memory-recovery-store.js'
import { DEFAULT_DEFLATE_CONFIG } from '../../../lib/core/ws/extensions/deflate-config.js'
import { DEFAULT_LIMITS } from '../../../lib/engine/options/limits.js'
import { DEFAULT_RECOVERY, resolveOptions, type ServerOptions } from '../../../lib/engine/options/server-options.js'

const errors = (options: unknown): readonly string[] => {
  const r = resolveOptions(options as ServerOptions)
  return E.isLeft(r) ? r.left : []
}

test('resolveOptions :: the seed defaults: 0.0.0.0:6001, no debug, any origin', () => {
  const r = resolveOptions({})
  assert.ok(E.isRight(r))
  if (E.isRight(r)) {
    assert.equal(r.right, { host: '0.0.0.0', port: 6001, debug: false, allowedOrigins: ['*'], protocols: [], limits: DEFAULT_LIMITS, recovery: DEFAULT_RECOVERY, perMessageDeflate: DEFAULT_DEFLATE_CONFIG, compress: DEFAULT_COMPRESS_CONFIG })
  }
})

test('resolveOptions :: recovery: defaults, partial overrides, off, and bad values named', () => {
  const given = resolveOptions({ recovery: { windowMs: 5000 } })
  assert.equal(E.isRight(given) ? given.right.recovery : 'left', { ...DEFAULT_RECOVERY, windowMs: 5000 })
  const off = resolveOptions({ recovery: false })
  assert.is(E.isRight(off) ? off.right.recovery : 'left', undefined)
  assert.ok(errors({ recovery: { windowMs: 0 } }).some((e) => e.startsWith('recovery')), 'a zero window is refused')
  assert.ok(errors({ recovery: true }).some((e) => e.startsWith('recovery')), 'true is not an option value')
  const store = memoryRecoveryStore()
  const withStore = resolveOptions({ recovery: { store, loadTimeoutMs: 500 } })
  assert.ok(E.isRight(withStore) && withStore.right.recovery?.store === store && withStore.right.recovery.loadTimeoutMs === 500)
  assert.ok(errors({ recovery: { store: { saveSession: () => undefined } as never } }).some((e) => e.includes('store.loadSession: expected a function')), 'a store without its methods is named')
  assert.ok(errors({ recovery: { flushMs: 0 } }).some((e) => e.includes('flushMs: expected a positive integer')))
  assert.ok(errors({ recovery: { maxPendingBytes: 1.5 } }).includes('recovery.1.maxPendingBytes: expected a positive integer, got 1.5'))
  const bound = resolveOptions({ recovery: { maxPendingBytes: 1 << 20 } })
  assert.is(E.isRight(bound) ? bound.right.recovery?.maxPendingBytes : 'left', 1 << 20)
  assert.is(DEFAULT_RECOVERY.maxPendingBytes, 64 * 1024 * 1024)
})

test('resolveOptions :: given limits override their defaults only', () => {
  const r = resolveOptions({ port: 0, limits: { maxBody: 10 } })
  assert.ok(E.isRight(r) && r.right.limits.maxBody === 10 && r.right.limits.maxHeaders === DEFAULT_LIMITS.maxHeaders && r.right.port === 0)
})

test('resolveOptions :: each bad option is named with what was expected', () => {
  assert.equal(errors({ port: 70000 }), ['port: expected an integer from 0 to 65535, got 70000'])
  assert.equal(errors({ host: 5 }), ['host: expected string, got 5'])
  assert.equal(errors({ limits: { maxBody: 1.5 } }), ['limits.maxBody: expected a positive integer, got 1.5'])
  assert.match(errors({ limits: { maxBodies: 1 } })[0] ?? '', /^limits\.maxBodies: not a known limit/)
  assert.match(errors({ logger: { info: 1 } }).join('\n'), /logger\.error: expected a function/)
  assert.match(errors({ allowedOrigins: ['a', 2] })[0] ?? '', /^allowedOrigins\.1: expected string/)
  assert.equal(errors(null), ['options: expected an object'])
  assert.match(errors({ debug: 1n })[0] ?? '', /^debug: expected boolean, got 1/)
})

test('resolveOptions :: perMessageDeflate is off unless asked; true turns the defaults on; an object changes them', () => {
  const config = (perMessageDeflate: unknown) => {
    const r = resolveOptions({ perMessageDeflate } as ServerOptions)
    return E.isRight(r) ? r.right.perMessageDeflate : undefined
  }
  assert.equal(config(undefined), DEFAULT_DEFLATE_CONFIG)
  assert.is(config(undefined)?.enabled, false)
  assert.equal(config(false), DEFAULT_DEFLATE_CONFIG)
  assert.equal(config(true), { ...DEFAULT_DEFLATE_CONFIG, enabled: true })
  assert.equal(config({ threshold: 256, serverMaxWindowBits: 12 }), { ...DEFAULT_DEFLATE_CONFIG, enabled: true, threshold: 256, serverMaxWindowBits: 12 })
  assert.equal(config({ enabled: false, threshold: 10 })?.enabled, false)
})

test('resolveOptions :: compress is off unless asked; a bad setting is named', () => {
  const r = resolveOptions({ compress: { threshold: 256 } })
  assert.equal(E.isRight(r) ? r.right.compress : undefined, { ...DEFAULT_COMPRESS_CONFIG, enabled: true, threshold: 256 })
  assert.equal(errors({ compress: { brotliQuality: 12 } }), ['compress.brotliQuality: expected an integer from 0 to 11, got 12'])
})

test('resolveOptions :: a bad perMessageDeflate names the setting and what it takes', () => {
  assert.equal(errors({ perMessageDeflate: 'yes' }), ['perMessageDeflate: expected true, false or an object of settings, got "yes"'])
  assert.equal(errors({ perMessageDeflate: [1] }), ['perMessageDeflate: expected true, false or an object of settings, got [1]'])
  assert.equal(errors({ perMessageDeflate: null }), ['perMessageDeflate: expected true, false or an object of settings, got null'])
  assert.equal(errors({ perMessageDeflate: { serverMaxWindowBits: 16 } }), ['perMessageDeflate.serverMaxWindowBits: expected an integer from 8 to 15, got 16'])
  assert.equal(errors({ perMessageDeflate: { memLevel: 0 } }), ['perMessageDeflate.memLevel: expected an integer from 1 to 9, got 0'])
  assert.equal(errors({ perMessageDeflate: { treshold: 10 } }), ['perMessageDeflate.treshold: expected a known option, got 10'])
  assert.equal(errors({ perMessageDeflate: { serverNoContextTakeover: 'no' } }), ['perMessageDeflate.serverNoContextTakeover: expected true or false, got "no"'])
})

test.run()

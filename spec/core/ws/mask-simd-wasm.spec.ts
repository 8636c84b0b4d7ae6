import { readFileSync } from 'node:fs'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { MASK_SIMD_WASM } from '../../../lib/core/ws/mask-simd-wasm.js'
import { assembleMaskSimd, renderBytesModule, WAT_URL } from '../../support/assemble-mask-simd.js'

test('mask-simd-wasm :: the committed bytes are what mask-simd.wat assembles to (run spec/support/assemble-mask-simd.ts)', async () => {
  const assembled = await assembleMaskSimd(readFileSync(WAT_URL, 'utf8'))
  assert.equal(Array.from(MASK_SIMD_WASM), Array.from(assembled))
  assert.is(readFileSync(new URL('../../../lib/core/ws/mask-simd-wasm.ts', import.meta.url), 'utf8'), renderBytesModule(assembled))
})

test('mask-simd-wasm :: a valid module that exports its memory and `mask`', () => {
  assert.ok(WebAssembly.validate(MASK_SIMD_WASM))
  const exports = WebAssembly.Module.exports(new WebAssembly.Module(MASK_SIMD_WASM))
  assert.equal(exports.map((e) => `${e.kind} ${e.name}`).sort(), ['function mask', 'memory memory'])
})

test.run()

/**
 * The addon's `writeMany` (a broadcast's frame to many connections in one call) on real
 * loopback sockets, through the bare binding (write-many-exchange.ts): order behind a queued
 * write, a full kernel buffer, gone/ended/reset receivers, bad arguments. Under AddressSanitizer
 * the same exchange runs in native-asan.spec.ts.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { loadNativeBinding } from '../../lib/native/native-binding.js'
import { buildNative } from './build-native.js'
import { writeManyExchange } from './write-many-exchange.js'

const test = suite('native transport :: writeMany')
const built = buildNative('release')
const skip = 'skip' in built ? built.skip : undefined
if (skip !== undefined) console.log(`  writeMany specs skipped: ${skip}`)

test('one frame to many: order, full buffers, gone and reset receivers, bad arguments', async () => {
  if (skip !== undefined) return
  const native = loadNativeBinding()
  if (native._tag === 'Left') return assert.unreachable(native.left)
  await writeManyExchange(native.right)
  assert.is(native.right.openCount(), 0)
})

test.run()

/**
 * The native transport under AddressSanitizer (issue 32's safety rule): native/twinport.c
 * built with `-fsanitize=address` (`make -C native asan`), loaded by a Node child with
 * libasan preloaded (Node itself is not instrumented; the addon's every load and store is),
 * serving the loopback exchange (loopback-exchange.ts): reads across slabs, writev, the
 * native queue and its drain, half-close, reset, destroy; and `writeMany` (write-many-exchange.ts). Any overflow or use after free is
 * ASan's report on stderr and a failed exit.
 */
import { spawnSync } from 'node:child_process'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { buildNative } from './build-native.js'

const test = suite('native transport :: AddressSanitizer')

const libasan = (): string | undefined => {
  const found = spawnSync('cc', ['-print-file-name=libasan.so'], { encoding: 'utf8' })
  const path = found.stdout?.trim()
  return found.status === 0 && path !== undefined && path.startsWith('/') ? path : undefined
}

const runChild = (env: NodeJS.ProcessEnv): { status: number | null; stdout: string; stderr: string } =>
  spawnSync(process.execPath, ['--import', 'tsx', 'spec/native/asan-child.ts'], {
    encoding: 'utf8',
    timeout: 120_000,
    env: { ...process.env, ASAN_OPTIONS: 'detect_leaks=0:abort_on_error=0', ...env },
  })

test('the loopback exchange runs clean on the ASan build, and every connection is closed after', () => {
  const built = buildNative('asan')
  const preload = libasan()
  if ('skip' in built || preload === undefined) {
    console.log(`  skipped: ${'skip' in built ? built.skip : 'no libasan.so next to cc'}`)
    return
  }
  const run = runChild({ LD_PRELOAD: preload, TWINPORT_NATIVE_BINARY: built.path })
  assert.not.match(run.stderr, /AddressSanitizer/, run.stderr.slice(0, 2000))
  assert.is(run.status, 0, run.stderr.slice(0, 2000))
  assert.match(run.stdout, /loopback ok, open 0/)
})

test('the instrumented binary is what ran: without libasan preloaded, ASan stops the process as it loads', () => {
  const built = buildNative('asan')
  if ('skip' in built) return
  const run = runChild({ LD_PRELOAD: '', TWINPORT_NATIVE_BINARY: built.path })
  assert.is.not(run.status, 0)
  assert.match(run.stderr, /ASan runtime does not come first/)
})

test.run()

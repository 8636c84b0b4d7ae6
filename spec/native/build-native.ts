/**
 * `buildNative(variant)`: makes sure the native transport's binary of `variant` exists
 * (`make -C native` or `make -C native asan`, with the system compiler), for the specs of
 * spec/native. Answers the binary's path, or why it cannot be built here (no compiler, not
 * Linux): those specs then skip, saying so.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const NAME = `twinport-${process.platform}-${process.arch}.node`

/** The binary of `variant` (built when missing), or the reason there is none. */
export const buildNative = (variant: 'release' | 'asan'): { readonly path: string } | { readonly skip: string } => {
  const path = `${ROOT}native/build/${variant === 'asan' ? 'asan/' : ''}${NAME}`
  if (process.platform !== 'linux') return { skip: `the native transport is built on Linux first (this is ${process.platform})` }
  const make = spawnSync('make', ['-s', '-C', `${ROOT}native`, variant === 'asan' ? 'asan' : 'all'], { encoding: 'utf8' })
  if (make.error !== undefined) return { skip: `make is missing (${make.error.message}); .ci/run installs build-essential` }
  if (make.status !== 0 || !existsSync(path)) return { skip: `make -C native ${variant === 'asan' ? 'asan' : ''} failed: ${make.stderr.trim().slice(0, 400)}` }
  return { path }
}

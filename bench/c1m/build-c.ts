/**
 * Builds the C programs of bench/c1m (the load client `wsload.c`, the kernel-floor probe
 * `floor.c`) with the system `cc` into bench/.tmp/c1m/, once per source change. Used by the
 * c1m driver and by `npm run bench`'s echo workloads (bench/load/run-load.ts).
 * Must not import the harness's drivers (they import this).
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

/** Where the binaries go. */
export const C_OUT = 'bench/.tmp/c1m'

/** The built binary's path, or why there is none (no `cc`, or a compile error). */
export const buildC = (name: 'wsload' | 'floor'): { readonly path: string } | { readonly error: string } => {
  const source = join('bench/c1m', `${name}.c`)
  const path = join(C_OUT, name)
  if (existsSync(path) && statSync(path).mtimeMs >= statSync(source).mtimeMs) return { path }
  mkdirSync(C_OUT, { recursive: true })
  const cc = process.env.CC ?? 'cc'
  const ran = spawnSync(cc, ['-O2', '-Wall', '-o', path, source], { encoding: 'utf8' })
  if (ran.error !== undefined) return { error: `${cc} not available (${ran.error.message}); install a C compiler (apt-get install -y build-essential)` }
  if (ran.status !== 0) return { error: `${cc} failed on ${source}: ${ran.stderr.trim().split('\n').slice(-3).join(' | ')}` }
  return { path }
}

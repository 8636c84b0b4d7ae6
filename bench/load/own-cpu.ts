/**
 * For the client benchmarks that drive a server from inside their own process
 * (`bench/client-acks.ts`, `bench/client-recovery.ts`): move this process to a CPU of its
 * own (the harness starts micro-benchmarks on CPU 0, where the servers run), and pick a
 * peer server's script, compiled when this module runs compiled.
 */
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'

/** Pins every thread of this process to `cpu` (`taskset -a -p`); false when taskset is missing. */
export const pinSelf = (cpu: number): boolean =>
  spawnSync('taskset', ['-a', '-p', '-c', String(cpu), String(process.pid)], { stdio: 'ignore' }).status === 0

/**
 * The script of peer `name` (`bench/peers/<name>.ts`): its compiled `.js` under
 * `bench/.tmp/dist` when `compiled` (this module runs from there) and it exists, else the source.
 */
export const peerScript = (name: string, compiled: boolean): string => {
  const js = `bench/.tmp/dist/bench/peers/${name}.js`
  return compiled && existsSync(js) ? js : `bench/peers/${name}.ts`
}

/** Whether the module at `url` runs compiled (from `bench/.tmp/dist`), not under tsx. */
export const runsCompiled = (url: string): boolean => url.endsWith('.js')

/**
 * Runs a bench compiled, as an application ships JavaScript: from source under tsx, builds
 * (`tsc -p tsconfig.bench.json`) and runs `bench/.tmp/dist/bench/<name>.js` with this process's
 * arguments, then exits with its status. Returns at once when already compiled or when
 * `fromSource` (the bench's `--source`) asks to stay under tsx.
 */
export const runCompiledCopy = (url: string, name: string, fromSource: boolean): void => {
  if (runsCompiled(url) || fromSource) return
  process.stderr.write('compiling (tsc -p tsconfig.bench.json)…\n')
  const build = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'inherit', timeout: 300_000 })
  if (build.status !== 0) throw new Error('the build failed; --source runs from source')
  const child = spawnSync(process.execPath, [`bench/.tmp/dist/bench/${name}.js`, ...process.argv.slice(2)], { stdio: 'inherit' })
  process.exit(child.status ?? 1)
}

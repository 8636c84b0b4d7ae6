/**
 * Which runtime a spec's server runs in, and how to start a TypeScript entry point there.
 * Specs that start an example as a process (`spec/examples/*.spec.ts`) and the integration
 * specs, whose fixture apps are served by spec/support/serve-fixture.ts
 * (spec/support/fixture-server.ts), drive the server with Node clients whatever its
 * runtime: `TWINPORT_TARGET=bun|deno|node|node-native` (default node) picks the runtime (and
 * on Node the transport), and `npm test` runs those specs once per runtime.
 */

import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { tmpdir } from 'node:os'

export type Runtime = 'node' | 'bun' | 'deno'

export const RUNTIMES: readonly Runtime[] = ['node', 'bun', 'deno']

/**
 * The runtime named by `TWINPORT_TARGET`, Node when unset. `node-native` is Node with
 * `transport: 'native'` (lib/native/; see `targetTransport`).
 */
export const targetRuntime = (): Runtime => {
  const named = process.env.TWINPORT_TARGET ?? 'node'
  if (named === 'node' || named === 'bun' || named === 'deno') return named
  if (named === 'node-native') return 'node'
  throw new Error(`TWINPORT_TARGET: expected node, node-native, bun or deno, got ${named}`)
}

/** The transport a Node server of the specs uses: `native` with `TWINPORT_TARGET=node-native`. */
export const targetTransport = (): 'native' | 'net' => (process.env.TWINPORT_TARGET === 'node-native' ? 'native' : 'net')

/** The command and arguments that run `script` (a .ts file) in `runtime`, from the project root. */
export const scriptCommand = (runtime: Runtime, script: string): { readonly command: string; readonly args: readonly string[] } => {
  switch (runtime) {
    case 'node':
      return { command: process.execPath, args: ['--import', 'tsx', script] }
    case 'bun':
      return { command: 'node_modules/bun/bin/bun.exe', args: [script] }
    case 'deno':
      // The binary itself, not npm's wrapper script: signals must reach the server. Writes only
      // under the temp directory (the upload specs' files: spec/integration/run-server-uploads.spec.ts).
      return {
        command: denoBinary(),
        args: ['run', '--quiet', '--allow-net', '--allow-env', '--allow-read', `--allow-write=${tmpdir()}`, '--allow-sys', '--sloppy-imports', '--node-modules-dir=manual', script],
      }
  }
}

const DENO = 'node_modules/deno/deno'

// npm's `deno` package links its binary into place on first run of its wrapper script.
const denoBinary = (): string => {
  if (!existsSync(DENO)) spawnSync(process.execPath, ['node_modules/deno/bin.cjs', '--version'], { stdio: 'ignore' })
  return DENO
}

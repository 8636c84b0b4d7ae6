/**
 * Benchmark driver (not a test): the native transport's cost per wake-up (issue 32, session
 * 12): WebSocket echo with 1 and with 10 messages in flight on 50 connections, measured by the
 * C load client (bench/c1m/wsload.c, pinned to CPU 1) against servers pinned to CPU 0, in
 * interleaved rounds of the same run:
 *   - `native-base`: twinport's echo example on the native transport as built from `--base`
 *     (default: the merge base with main), its JS and its addon, in bench/.tmp/native-base;
 *   - `native`: the same on this tree's build (`make -C native` first);
 *   - `uws`: uWebSockets.js (bench/peers/uws.ts);
 *   - `net`: this tree's build on node:net.
 * Prints per run the messages per second, the server's CPU per message (utime + stime from
 * /proc over the window, as wsload reads it) and the load average, then the medians and the
 * ratios against uWS. Keep it short on a shared machine: the defaults take about 2 minutes.
 *
 * Run: `npx tsx bench/native-wake.ts [--base <rev>] [--rounds 2] [--ms 3000] [--warmup 500] [--only native,uws]`
 * Must not be imported by lib/ or spec/.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { buildC } from './c1m/build-c.js'
import { startServer } from './load/start-server.js'

const { values: opt } = parseArgs({
  options: {
    base: { type: 'string' },
    rounds: { type: 'string', default: '2' },
    ms: { type: 'string', default: '3000' },
    warmup: { type: 'string', default: '500' },
    only: { type: 'string' },
  },
})

const BASE_DIR = resolve('bench/.tmp/native-base')
const binary = `native/build/twinport-${process.platform}-${process.arch}.node`

const run = (cmd: string, args: readonly string[], cwd = '.'): void => {
  const ran = spawnSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  if (ran.status !== 0) throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed: ${(ran.stderr || ran.stdout).slice(-800)}`)
}

// The base build: the base commit's tree, this tree's node_modules, compiled and its addon built.
const buildBase = (rev: string): void => {
  rmSync(BASE_DIR, { recursive: true, force: true })
  mkdirSync(BASE_DIR, { recursive: true })
  execFileSync('bash', ['-c', `git archive ${rev} | tar -x -C ${BASE_DIR}`])
  symlinkSync(resolve('node_modules'), resolve(BASE_DIR, 'node_modules'))
  run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.bench.json'], BASE_DIR)
  run('make', ['-s', '-C', 'native'], BASE_DIR)
}

interface Contender {
  readonly id: string
  readonly script: string
  readonly env: Readonly<Record<string, string>>
}

const base = opt.base ?? execFileSync('git', ['merge-base', 'HEAD', 'main'], { encoding: 'utf8' }).trim()
const all: readonly Contender[] = [
  { id: 'native-base', script: `${BASE_DIR}/bench/.tmp/dist/examples/echo.js`, env: { TRANSPORT: 'native', TWINPORT_NATIVE_BINARY: `${BASE_DIR}/${binary}` } },
  { id: 'native', script: 'bench/.tmp/dist/examples/echo.js', env: { TRANSPORT: 'native', TWINPORT_NATIVE_BINARY: binary } },
  { id: 'uws', script: 'bench/peers/uws.ts', env: {} },
  { id: 'net', script: 'bench/.tmp/dist/examples/echo.js', env: { TRANSPORT: 'net' } },
]
const contenders = all.filter((c) => opt.only === undefined || opt.only.split(',').includes(c.id))

const loadavg = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

interface Sample {
  readonly contender: string
  readonly inflight: number
  readonly rate: number
  readonly cpuUs: number
  readonly load: string
}

const main = async (): Promise<void> => {
  console.log(`base ${base}; building (load ${loadavg()})`)
  if (contenders.some((c) => c.id === 'native-base')) buildBase(base)
  run(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', 'tsconfig.bench.json'])
  run('make', ['-s', '-C', 'native'])
  const wsload = buildC('wsload')
  if (!('path' in wsload)) throw new Error(wsload.error)
  for (const c of contenders) if (c.script.endsWith('.js') && !existsSync(c.script)) throw new Error(`${c.script} missing`)

  const samples: Sample[] = []
  const rounds = Number(opt.rounds)
  for (let round = 1; round <= rounds; round++) {
    for (const inflight of [1, 10]) {
      // Alternate the order round by round, so neither end of a round is always one contender's.
      const order = round % 2 === 1 ? contenders : [...contenders].reverse()
      for (const c of order) {
        const server = await startServer(c.script, 20_000, [], c.env)
        if (typeof server === 'string') {
          console.log(`${c.id}: ${server}`)
          continue
        }
        try {
          const load = loadavg()
          const ran = spawnSync('taskset', ['-c', '1', wsload.path, '--mode', 'echo', '--port', String(server.port), '--server-pid', String(server.pid),
            '--conns', '50', '--inflight', String(inflight), '--size', '32', '--warmup', opt.warmup!, '--ms', opt.ms!, '--deadline', '60000'], { encoding: 'utf8', timeout: 70_000 })
          const line = ran.stdout.split('\n').find((l) => l.startsWith('RESULT '))
          const r = line === undefined ? undefined : JSON.parse(line.slice(7)) as { ok: boolean; ms: number; messages: number; serverCpuMs: number; error?: string }
          if (r === undefined || !r.ok) {
            console.log(`${c.id} ×${inflight}: ${r?.error ?? ran.stderr.slice(-300)}`)
            continue
          }
          const sample = { contender: c.id, inflight, rate: (r.messages * 1000) / r.ms, cpuUs: (r.serverCpuMs * 1000) / r.messages, load }
          samples.push(sample)
          console.log(`round ${round} ×${inflight} ${c.id.padEnd(12)} ${sample.rate.toFixed(0).padStart(7)} msg/s  ${sample.cpuUs.toFixed(2).padStart(6)} µs CPU/msg  load ${load}`)
        } finally {
          await server.stop()
        }
      }
    }
  }

  const median = (xs: readonly number[]): number => {
    const s = [...xs].sort((a, b) => a - b)
    const m = s.length >> 1
    return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2
  }
  console.log('\n| in flight | contender | msg/s (median) | server CPU per message (µs, median) | CPU / uWS |')
  console.log('|---|---|---:|---:|---:|')
  for (const inflight of [1, 10]) {
    const of = (id: string): readonly Sample[] => samples.filter((s) => s.inflight === inflight && s.contender === id)
    const uws = of('uws').length > 0 ? median(of('uws').map((s) => s.cpuUs)) : NaN
    for (const c of contenders) {
      const xs = of(c.id)
      if (xs.length === 0) continue
      const cpu = median(xs.map((s) => s.cpuUs))
      console.log(`| ${inflight} | ${c.id} [${xs.length}] | ${median(xs.map((s) => s.rate)).toFixed(0)} | ${cpu.toFixed(2)} | ${(cpu / uws).toFixed(2)}× |`)
    }
  }
}

await main()

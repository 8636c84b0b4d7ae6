/**
 * Interleaved rounds of `memory-probe.ts` + `upload-runs.ts`: for each round and each contender
 * (rotated every round), a fresh probed server pinned to CPU 0, one warm-up upload, a settled
 * baseline after a full GC, then `clients` uploads of `MiB` at once from CPU 1; prints one line
 * per run (time, server CPU per GiB, RSS growth from the meter, the in-process peak growth of
 * RSS, heap used and array buffers) with the load average before it, then the medians.
 *
 *   node --import tsx bench/streaming/upload-memory-rounds.ts <dist> <rounds> <clients> <MiB> <contender>... [-- upload-runs flags]
 *
 * A contender is `twinport`, `twinport-native` (the same server on the native transport:
 * `make -C native` first), `fastify`, `raw-net` or `raw-net:onread` (`upload-raw-net.ts` with
 * `UPLOAD_READS=onread`), optionally `@<dist>` to take its build from another
 * `bench/.tmp/<dist>` (e.g. `twinport@dist-before`). Servers compiled first
 * (`npx tsc -p tsconfig.bench.json --outDir bench/.tmp/<dist>`). Linux only; ports 7301+.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const argv = process.argv.slice(2)
const dash = argv.indexOf('--')
const [dist = 'dist', rounds = '2', clients = '64', mib = '16', ...contenders] = dash < 0 ? argv : argv.slice(0, dash)
const extra = dash < 0 ? [] : argv.slice(dash + 1)
if (contenders.length === 0) {
  console.error('usage: upload-memory-rounds.ts <dist> <rounds> <clients> <MiB> <contender>... [-- flags]')
  process.exit(2)
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const load = (): string => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')

// Resolves with the first line of `child`'s output that `match` finds, or undefined at exit.
const lineOf = (child: ChildProcess, match: RegExp, timeoutMs: number): Promise<RegExpExecArray | undefined> =>
  new Promise((resolve) => {
    let text = ''
    const timer = setTimeout(() => finish(undefined), timeoutMs)
    const finish = (m: RegExpExecArray | undefined): void => {
      clearTimeout(timer)
      child.stdout?.off('data', onData)
      resolve(m)
    }
    const onData = (c: Buffer): void => {
      text += c.toString()
      const m = match.exec(text)
      if (m !== null) finish(m)
    }
    child.stdout?.on('data', onData)
    child.once('exit', () => finish(undefined))
  })

interface Row {
  readonly contender: string
  readonly line: string
  readonly ms: number
  readonly cpu: number
  readonly rss: number
  readonly probe: Readonly<Record<string, number>>
}

const runOne = async (contender: string, port: number, dir: string): Promise<Row | undefined> => {
  const [name = '', build = dist] = contender.split('@')
  const [peerName = '', reads] = name.split(':')
  const native = peerName === 'twinport-native'
  const peer = native ? 'twinport' : peerName
  const server = spawn('taskset', ['-c', '0', 'node', '--expose-gc', '--import', 'tsx', 'bench/streaming/memory-probe.ts', peer, build], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), UPLOAD_DIR: dir, ...(reads === undefined ? {} : { UPLOAD_READS: reads }), ...(native ? { TWINPORT_TRANSPORT: 'native', TWINPORT_NATIVE_BINARY: process.env['TWINPORT_NATIVE_BINARY'] ?? resolve(`native/build/twinport-${process.platform}-${process.arch}.node`) } : {}) },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  try {
    const started = await lineOf(server, /memory probe (\d+)/, 30_000)
    if (started === undefined) return undefined
    await sleep(300)
    const before = load()
    const client = spawn('taskset', ['-c', '1', 'node', '--import', 'tsx', 'bench/streaming/upload-runs.ts', String(port), clients, mib, String(server.pid), '--gc', ...extra], { stdio: ['ignore', 'pipe', 'inherit'] })
    const result = await lineOf(client, /: (\d+) ms, statuses (\S+), server CPU (\d+) ms\/GiB, RSS \+([\d.]+) MiB[^\n]*/, 600_000)
    await new Promise((r) => (client.exitCode === null ? client.once('exit', r) : r(undefined)))
    const peaks = lineOf(server, /peak growth MiB: ([^\n]*)/, 5_000)
    server.kill('SIGUSR1')
    const peak = await peaks
    if (result === undefined) return undefined
    const probe: Record<string, number> = {}
    for (const m of (peak?.[1] ?? '').matchAll(/(\w+) ([\d.]+)/g)) probe[m[1] as string] = Number(m[2])
    const line = `${contender} (load ${before}): ${result[0]}; in process: ${peak?.[1] ?? 'no figures'}`
    console.log(line)
    return { contender, line, ms: Number(result[1]), cpu: Number(result[3]), rss: Number(result[4]), probe }
  } finally {
    server.kill('SIGTERM')
    await sleep(200)
    if (server.exitCode === null) server.kill('SIGKILL')
  }
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const n = s.length
  return n === 0 ? Number.NaN : n % 2 === 1 ? (s[(n - 1) / 2] as number) : ((s[n / 2 - 1] as number) + (s[n / 2] as number)) / 2
}

const dir = mkdtempSync(join(tmpdir(), 'twinport-upload-memory-'))
const rows: Row[] = []
try {
  let port = 7301 + (process.pid % 200)
  for (let r = 0; r < Number(rounds); r++) {
    const order = contenders.map((_, i) => contenders[(i + r) % contenders.length] as string)
    for (const c of order) {
      const row = await runOne(c, port++, dir)
      if (row === undefined) console.log(`${c}: no result`)
      else rows.push(row)
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true })
}
console.log(`\n${clients} x ${mib} MiB, ${rounds} round(s); medians (min-max):`)
for (const c of contenders) {
  const mine = rows.filter((r) => r.contender === c)
  const fmt = (xs: number[], d = 1): string => `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}-${Math.max(...xs).toFixed(d)})`
  console.log(`${c}: s ${fmt(mine.map((r) => r.ms / 1000), 2)}, CPU ms/GiB ${fmt(mine.map((r) => r.cpu), 0)}, RSS growth ${fmt(mine.map((r) => r.rss))}, ` +
    `probe rss ${fmt(mine.map((r) => r.probe['rss'] ?? Number.NaN))}, heapTotal ${fmt(mine.map((r) => r.probe['heapTotal'] ?? Number.NaN))}, heapUsed ${fmt(mine.map((r) => r.probe['heapUsed'] ?? Number.NaN))}, arrayBuffers ${fmt(mine.map((r) => r.probe['arrayBuffers'] ?? Number.NaN))}`)
}

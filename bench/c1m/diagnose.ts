/**
 * bench/c1m's diagnosis in ONE server process (issue 31, Session 12): where its event loop waits
 * during the connect phase and during a broadcast to everyone, and what accept + upgrade costs.
 *
 *   node --import tsx bench/c1m/diagnose.ts --conns 16000 --broadcasts 5 [--redis] [--cpu-prof DIR] [--heartbeat-ms 5000 --idle-s 12]
 *   node --import tsx bench/c1m/diagnose.ts --root /tmp/base   # the server from another checkout (with this diag-server.ts copied in)
 *
 * Starts bench/c1m/diag-server.ts (one process, no node:cluster; `--redis`: on the Redis adapter
 * against a redis-server it starts), wsload idle clients (bench/c1m/wsload.c) of ≤ 8,000
 * connections each on 127.32.x.y addresses, and the loop probe of bench/c1m/delay-probe.ts on
 * the server's probe port (a `GET` every 10 ms on a kept-alive connection). Prints, per phase
 * (connect, idle, each broadcast): the outside probe's p50/p99/max, the server's own view
 * (`/diag`: CPU, a 1 ms timer's delay, GC pauses), the server CPU per accept + upgrade and per
 * delivery, and the load average. Loopback only; every process it starts is stopped at exit.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { loadavg } from 'node:os'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { request } from 'node:http'
import { buildC } from './build-c.js'
import { startDelayProbe, type DelaySample } from './delay-probe.js'
import { startIdleClient, sumStats, type IdleClient } from './idle-clients.js'
import { freePort, startRedis } from '../../spec/support/redis.js'

const { values: opt } = parseArgs({
  options: {
    conns: { type: 'string', default: '16000' },
    broadcasts: { type: 'string', default: '5' },
    redis: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'heartbeat-ms': { type: 'string' },
    'idle-s': { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '128' },
    label: { type: 'string', default: '' },
    root: { type: 'string' },
  },
})
const N = Number(opt.conns)
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
const live: ChildProcess[] = []
const clients: IdleClient[] = []
process.on('exit', () => {
  for (const c of clients) c.stop()
  for (const child of live) child.kill('SIGKILL')
})

const diag = (port: number, reset: boolean): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    request({ host: '127.0.0.1', port, path: reset ? '/diag?reset' : '/diag', agent: false }, (res) => {
      let text = ''
      res.on('data', (c: Buffer) => void (text += c.toString()))
      res.on('end', () => resolve(JSON.parse(text) as Record<string, unknown>))
    }).on('error', reject).end()
  })
const quantiles = (samples: readonly DelaySample[], from: number, to: number): string => {
  const ms = samples.filter((s) => s.at >= from && s.at < to && Number.isFinite(s.ms)).map((s) => s.ms).sort((a, b) => a - b)
  const q = (p: number): string => (ms[Math.min(ms.length - 1, Math.floor(p * ms.length))] ?? Number.NaN).toFixed(1)
  return `${q(0.5)} / ${q(0.99)} / ${(ms[ms.length - 1] ?? Number.NaN).toFixed(1)} ms (${ms.length} samples)`
}
const load = (): string => loadavg().map((l) => l.toFixed(2)).join(' ')

const wsload = buildC('wsload')
if ('error' in wsload) throw new Error(wsload.error)
const redis = opt.redis === true ? await startRedis() : undefined
const port = await freePort()
const execArgv = opt['cpu-prof'] === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', opt['cpu-prof']]
const server = spawn(process.execPath, [...execArgv, '--import', 'tsx', 'bench/c1m/diag-server.ts'], {
  env: { ...process.env, NODE_ENV: 'production', PORT: String(port), REDIS_URL: redis?.url ?? '', ...(opt['heartbeat-ms'] === undefined ? {} : { HEARTBEAT_MS: opt['heartbeat-ms'] }) },
  stdio: ['ignore', 'pipe', 'inherit'],
  ...(opt.root === undefined ? {} : { cwd: opt.root }),
})
live.push(server)
const ready = await new Promise<{ pid: number; probe: number }>((resolve, reject) => {
  createInterface({ input: server.stdout! }).on('line', (line) => {
    if (line.startsWith('DIAG_READY ')) resolve(JSON.parse(line.slice(11)) as { pid: number; probe: number })
  })
  server.once('exit', (code) => reject(new Error(`server exited with ${code}`)))
})
const probe = startDelayProbe('loop', [ready.probe])
await sleep(1500)
const report: Record<string, unknown> = { label: opt.label, conns: N, redis: redis !== undefined }

// connect
await diag(ready.probe, true)
let t = performance.now()
const per = 8000
for (let c = 0; c * per < N; c++) {
  clients.push(startIdleClient(wsload.path, port, Math.min(per, N - c * per), `127.32.${1 + Math.floor(c / 250)}.${1 + (c % 250)}`,
    Math.max(2, Math.floor(Number(opt.concurrency) / Math.ceil(N / per))), 10 * 60_000))
}
while (!clients.every((c) => c.progress.ready)) await sleep(50)
const connect = await diag(ready.probe, true)
const opened = sumStats(await Promise.all(clients.map((c) => c.stat()))).open
report.connect = { opened, perS: Math.round((opened * 1000) / (performance.now() - t)), cpuUsPerAccept: Number(connect.cpuUs) / opened, probe: quantiles(probe.samples, t, performance.now()), server: connect, load: load() }

// idle
t = performance.now()
await sleep(Number(opt['idle-s']) * 1000)
report.idle = { probe: quantiles(probe.samples, t, performance.now()), server: await diag(ready.probe, true), load: load() }

// broadcasts
const broadcasts: unknown[] = []
for (let b = 0; b < Number(opt.broadcasts); b++) {
  await diag(ready.probe, true)
  const before = sumStats(await Promise.all(clients.map((c) => c.stat())))
  t = performance.now()
  const sentAt = await (clients[0] as IdleClient).send()
  let now = before
  while (performance.now() - t < 30_000) {
    await sleep(20)
    now = sumStats(await Promise.all(clients.map((c) => c.stat())))
    if (now.recv - before.recv >= now.open) break
  }
  await sleep(100)
  const s = await diag(ready.probe, true)
  const got = now.recv - before.recv
  broadcasts.push({ got, ms: Number(((now.last - sentAt) / 1e6).toFixed(1)), cpuUsPerDelivery: Number(s.cpuUs) / Math.max(1, got), probe: quantiles(probe.samples, t, performance.now()), server: s, load: load() })
  await sleep(400)
}
report.broadcasts = broadcasts
probe.stop()
for (const c of clients.splice(0)) c.stop()
server.kill('SIGTERM')
await new Promise((r) => server.once('exit', r))
await redis?.dispose()
console.log(JSON.stringify(report, null, 1))
process.exit(0)

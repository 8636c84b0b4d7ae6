/**
 * The server side of bench/c1m (issue 31): twinport's echo app (examples/echo-routes.ts,
 * the `/bcast` room and `GET /hello`) on WORKERS processes sharing one port through
 * node:cluster, joined by the Redis adapter (`twinport/redis`) at REDIS_URL, so a message
 * sent to any worker's `/bcast` reaches every client of every worker.
 *
 * Environment: PORT, WORKERS, REDIS_URL, PREFIX (Redis key prefix, one per step),
 * HEARTBEAT_MS (`heartbeatIntervalMs`, default twinport's), MAX_CONNS (per worker: the
 * driver sizes it under the open-file limit), SCHED (`rr`: the primary accepts and hands
 * connections round-robin, Node's default on Linux; `none`: the workers accept from one
 * shared socket). Each worker also answers `GET /` on a probe port of its own (a plain
 * node:http server, `exclusive`, on the worker's event loop) so that the driver can time
 * that loop alone; `GET /mem` there runs a full garbage collection (the workers run with
 * `--expose-gc`) and answers `{"rss":…,"heapTotal":…,"heapUsed":…,"external":…}` in bytes a
 * second after it, so that
 * the driver reads memory per connection on settled heaps. Prints `C1M_READY {"primary":pid,"workers":[pids],"probes":[ports]}` once
 * every worker listens with its adapter ready; SIGTERM stops all. CPU_PROF (a directory): each
 * worker runs with `--cpu-prof` into it, and SIGTERM first asks the workers to exit, so that they
 * do it normally and write their profiles. TRANSPORT=native: the native addon with
 * SO_REUSEPORT per worker (bench/c1m/transport-options.ts); a worker that cannot load the addon
 * exits with the reason instead of serving on node:net. Loopback only.
 * Must not import from bench/c1m/run.ts (it is started by it).
 */
import cluster from 'node:cluster'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { runServer, silentLogger } from '../../lib/index.js'
import { loadNativeBinding } from '../../lib/native/native-binding.js'
import { redisAdapter } from '../../lib/redis/index.js'
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'
import { transportOptions } from './transport-options.js'

const workers = Math.max(1, Number(process.env.WORKERS ?? 1))
const port = Number(process.env.PORT ?? 0)
if (process.env.SCHED === 'none') cluster.schedulingPolicy = cluster.SCHED_NONE
else cluster.schedulingPolicy = cluster.SCHED_RR

if (cluster.isPrimary) {
  const ready: number[] = []
  const probes: number[] = []
  cluster.on('message', (worker, message: { c1m?: string; probe?: number } | null) => {
    if (message?.c1m !== 'ready' || worker.process.pid === undefined) return
    ready.push(worker.process.pid)
    probes.push(message.probe ?? 0)
    if (ready.length === workers) console.log(`C1M_READY ${JSON.stringify({ primary: process.pid, workers: ready, probes })}`)
  })
  cluster.on('exit', (worker, code, signal) => {
    if (!stopping) console.error(`c1m server: worker ${worker.process.pid ?? '?'} exited (${signal ?? code})`)
  })
  let stopping = false
  const profile = process.env.CPU_PROF
  const prof = profile !== undefined && profile !== '' ? ['--cpu-prof', '--cpu-prof-dir', profile] : []
  cluster.setupPrimary({ execArgv: [...process.execArgv, '--expose-gc', ...prof] })
  for (let i = 0; i < workers; i++) cluster.fork()
  process.once('SIGTERM', () => {
    stopping = true
    const all = Object.values(cluster.workers ?? {})
    // Profiled workers are asked to exit (so they write their profile); the rest are killed.
    if (profile !== undefined && profile !== '') for (const worker of all) worker?.send({ c1m: 'exit' })
    setTimeout(() => {
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL')
      process.exit(0)
    }, profile !== undefined && profile !== '' ? 5000 : 200)
  })
} else {
  // runServer falls back to node:net with a log line when the addon is missing, and the logger
  // here is silent: a native run that quietly measured node:net would be a wrong result.
  const native = transportOptions(process.env).transport === 'native' ? loadNativeBinding() : undefined
  if (native?._tag === 'Left') {
    console.error(`c1m server: TRANSPORT=native but ${native.left}`)
    process.exit(1)
  }
  const heartbeat = process.env.HEARTBEAT_MS === undefined ? {} : { heartbeatIntervalMs: Number(process.env.HEARTBEAT_MS) }
  const adapter = redisAdapter({ url: process.env.REDIS_URL, prefix: process.env.PREFIX ?? 'c1m' })
  await runServer({
    host: '127.0.0.1',
    port,
    routes: echoRoutes,
    ...echoOptions,
    logger: silentLogger,
    limits: { ...echoOptions.limits, ...heartbeat, maxConnections: Number(process.env.MAX_CONNS ?? 19_000) },
    cluster: adapter,
    // TRANSPORT=native: the native addon with SO_REUSEPORT (no node:cluster hand-off per accept).
    ...transportOptions(process.env),
  })
  await adapter.ready()
  const gc = (globalThis as { gc?: () => void }).gc
  const probe = createServer((req, res) => {
    if (req.url !== '/mem') return void res.end('ok')
    // Twice: the first full collection may leave garbage that finalizers released. Then a
    // second for V8 to hand the freed pages back (it unmaps them on a background thread).
    gc?.()
    gc?.()
    setTimeout(() => {
      const m = process.memoryUsage()
      res.end(JSON.stringify({ rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, gc: gc !== undefined }))
    }, 1000)
  })
  await new Promise<void>((resolve) => probe.listen({ host: '127.0.0.1', port: 0, exclusive: true }, resolve))
  process.send?.({ c1m: 'ready', probe: (probe.address() as AddressInfo).port })
  process.once('disconnect', () => process.exit(0))
  process.on('message', (message: { c1m?: string } | null) => {
    if (message?.c1m === 'exit') process.exit(0)
  })
}

/**
 * The echo app (examples/echo-routes.ts) on many processes sharing one port (node:cluster),
 * joined through Redis (`twinport/redis`): a `/bcast` message sent to any worker reaches the
 * `/bcast` clients of every worker, and of every other host running this against the same
 * Redis. Two of these on two ports (or two machines) behave as two hosts of one app.
 *
 * Run: `npm run example:cluster`. Environment: REDIS_URL (default redis://127.0.0.1:6379),
 * HOST (default 0.0.0.0), PORT (default 6001), WORKERS (default: the number of cores).
 * Redis may be down at start or at any time: each worker serves its own clients meanwhile.
 */
import cluster from 'node:cluster'
import { availableParallelism } from 'node:os'
import { runServer } from '../lib/index.js'
import { redisAdapter } from '../lib/redis/index.js'
import { echoOptions, echoRoutes } from './echo-routes.js'

const host = process.env.HOST ?? '0.0.0.0'
const port = Number(process.env.PORT ?? 6001)
const url = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379'
const workers = Math.max(1, Number(process.env.WORKERS ?? availableParallelism()))

if (cluster.isPrimary) {
  let stopping = false
  let listening = 0
  cluster.on('listening', (_worker, address) => {
    listening += 1
    if (listening === workers) console.log(`cluster: ${workers} workers listening on ${host}:${address.port}, Redis at ${url}`)
  })
  // A worker that dies is replaced; its clients reconnect to the others meanwhile.
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return
    console.log(`cluster: worker ${worker.process.pid} exited (${signal ?? code}); starting another`)
    cluster.fork()
  })
  for (let i = 0; i < workers; i++) cluster.fork()
  const stop = (): void => {
    stopping = true
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM')
    const wait = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length === 0) {
        clearInterval(wait)
        process.exit(0)
      }
    }, 20)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
} else {
  const server = await runServer({ host, port, routes: echoRoutes, ...echoOptions, cluster: redisAdapter({ url }) })
  const stop = (): void => {
    void server.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // The primary's Ctrl-C reaches workers too; a worker whose primary is gone stops.
  process.once('disconnect', stop)
}

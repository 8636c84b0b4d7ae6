/**
 * Bench server: twinport's echo app (examples/echo-routes.ts, the `/bcast` room) as one
 * node of a cluster. ADAPTER=redis joins the others through REDIS_URL (twinport/redis);
 * ADAPTER=local is the in-process default (one node alone), to measure the adapter's cost.
 * HOST/PORT from the environment; prints `listening` when the adapter is ready.
 */
import { runServer, silentLogger } from '../../lib/index.js'
import { redisAdapter } from '../../lib/redis/index.js'
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'

const adapter = process.env.ADAPTER === 'redis' ? redisAdapter({ url: process.env.REDIS_URL, prefix: process.env.PREFIX ?? 'bench' }) : undefined
const server = await runServer({
  host: process.env.HOST ?? '127.0.0.1',
  port: Number(process.env.PORT ?? 0),
  routes: echoRoutes,
  ...echoOptions,
  logger: silentLogger,
  limits: { ...echoOptions.limits, maxConnections: 100_000, maxSendBuffer: 64 * 1024 * 1024 },
  ...(adapter === undefined ? {} : { cluster: adapter }),
})
await adapter?.ready()
console.log(`twinport listening on ${server.address.port} (${process.env.ADAPTER ?? 'local'})`)
// Stopped with SIGTERM (bench/cluster.ts --profile): exit, so a CPU profile is written.
process.on('SIGTERM', () => process.exit(0))

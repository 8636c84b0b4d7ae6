/**
 * Bench server for `bench/recovery-store.ts`: one twinport node with the Redis adapter,
 * sessions on (the default), and with STORE=redis the Redis recovery store behind a counting
 * wrapper (`counting-store.ts`); STORE=none keeps sessions in this process only. Every
 * WebSocket client joins the room `all` when it connects. Driven over the IPC channel:
 *
 *   { id, op: 'burst', count }   broadcasts `t` {n, p} to `all` `count` times, back to back
 *   { id, op: 'tick', ms }       broadcasts one `t` every `ms` (0 stops); answers the last n
 *   { id, op: 'counts', reset }  what the journal wrote (StoreCounts), the warnings logged and the
 *                                longest event-loop delay (ms) and the longest block after the last
 *                                burst's loop returned (its flush; the burst itself not counted), then resets them
 *   { id, op: 'quiet', quietMs, maxMs }   waits until the journal is quiet; answers the counts
 *
 * Sends { op: 'ready', port, node } once the adapter is ready. Env: REDIS_URL, PREFIX,
 * NODE_ID, STORE. Logs warnings and above to stderr (a failing store says so there).
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { createLogger, LogLevel, onConnect, routes, runServer } from '../../lib/index.js'
import { redisAdapter, redisRecoveryStore } from '../../lib/redis/index.js'
import { countingStore } from './counting-store.js'

/** The payload every broadcast carries besides its number (32 bytes, as bench/cluster.ts). */
export const PAD = 'twinport-bench-0123456789abcdef'

type Command =
  | { readonly id: number; readonly op: 'burst'; readonly count: number }
  | { readonly id: number; readonly op: 'tick'; readonly ms: number }
  | { readonly id: number; readonly op: 'counts'; readonly reset?: boolean }
  | { readonly id: number; readonly op: 'quiet'; readonly quietMs: number; readonly maxMs: number }

const now = (): number => performance.timeOrigin + performance.now()
const url = process.env.REDIS_URL
const prefix = process.env.PREFIX ?? 'bench'
const adapter = redisAdapter({ url, prefix, nodeId: process.env.NODE_ID })
const inner = process.env.STORE === 'redis' ? redisRecoveryStore({ url, prefix }) : undefined
await inner?.connect()
const counted = inner === undefined ? undefined : countingStore(inner, now)
const stderr = { write: (text: string) => process.stderr.write(text) }
// Warnings are counted (and written to stderr): the journal says there when the store fails.
let warnings = 0
const base = createLogger({ minLevel: LogLevel.WARNING, stdout: stderr, stderr, colors: false })
const logger = { ...base, warning: (message: string, context?: Record<string, unknown>) => (warnings++, base.warning(message, context)) }

const server = await runServer({
  host: '127.0.0.1',
  port: 0,
  cluster: adapter,
  logger,
  limits: { maxConnections: 100_000, maxSendBuffer: 64 * 1024 * 1024, heartbeatIntervalMs: 600_000 },
  ...(counted === undefined ? {} : { recovery: { store: counted.store } }),
  routes: routes({ join: onConnect((ctx) => ctx.joinRoom('all')) }),
})
await adapter.ready()

// The longest this node's event loop was blocked since the last reset (anything else waited as long).
const loop = monitorEventLoopDelay({ resolution: 10 })
loop.enable()
const loopMaxMs = (): number => loop.max / 1e6
// The longest a 5 ms timer was late after the last burst's loop returned: what held the
// loop after the burst (the journal's flush), the burst's own loop not counted.
let afterFrom = Number.POSITIVE_INFINITY
let afterBurstMs = 0
let lastBeat = now()
setInterval(() => {
  const t = now()
  if (lastBeat >= afterFrom) afterBurstMs = Math.max(afterBurstMs, t - lastBeat - 5)
  lastBeat = t
}, 5)

let n = 0
let ticker: NodeJS.Timeout | undefined
const broadcast = (): void => void server.broadcast('t', { n: ++n, p: PAD }, { room: 'all' })
const noCounts = { calls: 0, frames: 0, frameBytes: 0, flushes: 0, maxInFlight: 0, inFlight: 0, failed: 0, refused: 0, slowestMs: 0, firstAt: Number.NaN, lastDoneAt: Number.NaN }

process.on('message', (command: Command) => {
  const answer = (body: object): void => void process.send?.({ id: command.id, ...body })
  switch (command.op) {
    case 'burst': {
      const at = now()
      for (let i = 0; i < command.count; i++) broadcast()
      afterFrom = now()
      afterBurstMs = 0
      return answer({ at, last: n, took: now() - at })
    }
    case 'tick':
      clearInterval(ticker)
      if (command.ms > 0) ticker = setInterval(broadcast, command.ms)
      return answer({ last: n })
    case 'counts': {
      const counts = { ...(counted?.counts() ?? noCounts), warnings, loopMaxMs: loopMaxMs(), afterBurstMs }
      if (command.reset === true) {
        counted?.reset()
        warnings = 0
        loop.reset()
      }
      return answer({ counts })
    }
    case 'quiet':
      if (counted === undefined) return answer({ quiet: true, counts: { ...noCounts, warnings, loopMaxMs: loopMaxMs(), afterBurstMs } })
      return void counted.quiet(command.quietMs, command.maxMs).then((quiet) => answer({ quiet, counts: { ...counted.counts(), warnings, loopMaxMs: loopMaxMs(), afterBurstMs } }))
  }
})
// Stopped with SIGTERM (--profile): exit, so a CPU profile is written.
process.on('SIGTERM', () => process.exit(0))
process.send?.({ op: 'ready', port: server.address.port, node: adapter.nodeId })

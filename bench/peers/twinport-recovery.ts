/**
 * Peer server for `bench/client-recovery.ts`: twinport with sessions (the default 2-minute
 * window), behind a TCP relay in the same process. The relay listens on HOST/PORT and
 * forwards each connection to the twinport server on an ephemeral port; SIGUSR2 destroys
 * every relayed connection, both halves at once, so that no close frame is sent either way
 * (a network failure, or a balancer restarting, as the server sees it: the sessions stay).
 *
 * Events: `join` (joins the room `all`; answers the last tick), `start` {ms} (broadcasts
 * `tick` {n} to `all` every `ms`), `stop` (stops the ticker; answers the last n), `note`
 * (counted; answers its data), `stats` (answers { notes, ticks }).
 */
import { connect, createServer, type Socket } from 'node:net'
import { routes, runServer, socketOn } from '../../lib/index.js'

let tick = 0
let notes = 0
let ticker: NodeJS.Timeout | undefined

const server = await runServer({
  host: '127.0.0.1',
  port: 0,
  cors: false,
  logger: undefined,
  routes: routes({
    join: socketOn('join', (_data, ctx) => {
      ctx.joinRoom('all')
      return tick
    }),
    start: socketOn('start', (data) => {
      const ms = Math.max(1, Number((data as { ms?: unknown } | null)?.ms ?? 20))
      clearInterval(ticker)
      ticker = setInterval(() => {
        tick += 1
        server.broadcast('tick', { n: tick }, { room: 'all' })
      }, ms)
      return tick
    }),
    stop: socketOn('stop', () => {
      clearInterval(ticker)
      return tick
    }),
    note: socketOn('note', (data) => {
      notes += 1
      return data
    }),
    stats: socketOn('stats', () => ({ notes, ticks: tick })),
  }),
})

const pairs = new Set<readonly [Socket, Socket]>()
const relay = createServer({ noDelay: true }, (down) => {
  const up = connect({ host: '127.0.0.1', port: server.address.port, noDelay: true })
  const pair = [down, up] as const
  pairs.add(pair)
  const end = (): void => {
    pairs.delete(pair)
    down.destroy()
    up.destroy()
  }
  for (const s of pair) {
    s.on('error', end)
    s.on('close', end)
  }
  down.pipe(up)
  up.pipe(down)
})
relay.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '127.0.0.1')

process.on('SIGUSR2', () => {
  for (const [down, up] of [...pairs]) {
    down.destroy()
    up.destroy()
  }
  pairs.clear()
})
process.once('SIGTERM', () => {
  clearInterval(ticker)
  relay.close()
  void server.close().then(() => process.exit(0))
})

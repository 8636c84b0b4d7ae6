/**
 * Peer server for `bench/server-requests.ts`: twinport asking its clients. It keeps the ids of
 * its WebSocket clients (`onConnect`/`onDisconnect`); `GET /clients` answers how many,
 * `GET /go` starts `INFLIGHT` (10) loops per client of `server.requestClient(id, 'work', n)`
 * (the client answers `n + 1`, default 10 s time-out as a user gets it), `GET /mark` answers the
 * window since the last mark (`bench/load/request-loops.ts`), `GET /stop` ends the loops.
 * HOST/PORT from the environment.
 */
import { httpRoute, onConnect, onDisconnect, routes, runServer, type ServerHandle } from '../../lib/index.js'
import { requestLoops } from '../load/request-loops.js'

const IN_FLIGHT = Number(process.env['INFLIGHT'] ?? 10)
const clients = new Set<number>()
const loops = requestLoops()
let handle: ServerHandle | undefined

const ask = (id: number) => async (n: number): Promise<number | undefined> => {
  const answer = await handle?.requestClient<number>(id, 'work', n)
  return answer?._tag === 'Answered' ? answer.data : undefined
}

handle = await runServer({
  host: process.env['HOST'] ?? '0.0.0.0',
  port: Number(process.env['PORT'] ?? 6001),
  routes: routes(
    onConnect((ctx) => {
      clients.add(ctx.clientId)
    }),
    onDisconnect((ctx) => {
      clients.delete(ctx.clientId)
    }),
    httpRoute('GET', '/clients', () => ({ clients: clients.size })),
    httpRoute('GET', '/go', () => ({ started: loops.start([...clients].map(ask), IN_FLIGHT) })),
    httpRoute('GET', '/mark', () => loops.mark()),
    httpRoute('GET', '/stop', () => (loops.stop(), { stopped: true })),
  ),
  cors: false,
})

const stop = (): void => {
  loops.stop()
  void handle?.close().then(() => process.exit(0))
}
process.once('SIGINT', stop)
process.once('SIGTERM', stop)

/**
 * The child process of native-reuse-port.spec.ts: serves `GET /who` (its pid) on the native
 * transport with `reusePort` on the port named by PORT, prints `{"port":N}` once it listens (or
 * `{"error":code}` when it cannot), and closes on `close` (a line on stdin) or when stdin ends.
 */
import { createInterface } from 'node:readline'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { runServer } from '../../lib/node/run-server.js'
import { memoryLogger } from '../support/server.js'

const routes = [httpRoute('GET', '/who', () => ({ pid: process.pid }))]
const server = await runServer({ host: '127.0.0.1', port: Number(process.env.PORT), transport: 'native', reusePort: process.env.REUSE_PORT !== '0', logger: memoryLogger().logger, routes }).then(
  (started) => started,
  (error: unknown) => {
    console.log(JSON.stringify({ error: (error as { code?: string }).code ?? String(error) }))
    process.exit(0)
  },
)
console.log(JSON.stringify({ port: server.address.port }))
for await (const line of createInterface({ input: process.stdin })) if (line === 'close') break
await server.close()
process.exit(0)

/**
 * The child process of native-accept-backoff.spec.ts: started with a low open-file limit (256), it
 * serves on the native transport (`maxConnections` above the limit, so that accept itself fails)
 * and prints its port; on `mark` (a line on stdin) it notes its
 * CPU time, on `report` it prints the CPU time used since, the accept-wall warnings logged and
 * how many connections it holds, as JSON.
 */
import { createInterface } from 'node:readline'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { runServer } from '../../lib/node/run-server.js'
import { memoryLogger } from '../support/server.js'

const { logger, records } = memoryLogger()
const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', logger, limits: { maxConnections: 10_000 }, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
let marked = process.cpuUsage()
console.log(JSON.stringify({ port: server.address.port }))
for await (const line of createInterface({ input: process.stdin })) {
  if (line === 'mark') marked = process.cpuUsage()
  if (line === 'report') {
    const used = process.cpuUsage(marked)
    const warnings = records.filter((r) => r.level === 'warning').map((r) => ({ message: r.message, context: r.context }))
    console.log(JSON.stringify({ cpuMs: (used.user + used.system) / 1000, warnings }))
  }
  if (line === 'close') {
    await server.close()
    process.exit(0)
  }
}

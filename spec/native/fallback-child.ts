/**
 * The child process of native-transport.spec.ts's fallback test: started with
 * TWINPORT_NATIVE_BINARY naming a file that is not there, it asks for the native transport,
 * answers one request, and prints the warnings the server logged as JSON.
 */
import { httpRoute } from '../../lib/core/route/http-route.js'
import { runServer } from '../../lib/node/run-server.js'
import { memoryLogger } from '../support/server.js'

const { logger, records } = memoryLogger()
const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', logger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
const answer = await fetch(`http://127.0.0.1:${server.address.port}/hello`)
const body = await answer.text()
await server.close()
console.log(JSON.stringify({ body, warnings: records.filter((r) => r.level === 'warning').map((r) => r.message) }))

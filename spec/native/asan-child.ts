/**
 * The child process of native-asan.spec.ts: serves the echo routes on the native transport
 * (the AddressSanitizer build, named by TWINPORT_NATIVE_BINARY, with libasan preloaded), runs
 * the loopback exchange and the writeMany exchange (write-many-exchange.ts) against it, closes, and prints `loopback ok` and the open connection
 * count; any error exits 1. ASan's own report goes to stderr and exits non-zero.
 */
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'
import { runServer } from '../../lib/node/run-server.js'
import { loadNativeBinding } from '../../lib/native/native-binding.js'
import { loopbackExchange } from './loopback-exchange.js'
import { writeManyExchange } from './write-many-exchange.js'

const native = loadNativeBinding()
if (native._tag === 'Left') {
  console.error(`native transport unavailable: ${native.left}`)
  process.exit(1)
}
const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', routes: echoRoutes, ...echoOptions, logger: undefined })
try {
  await loopbackExchange(server.address.port)
  await writeManyExchange(native.right)
} catch (error) {
  console.error((error as Error).stack)
  process.exitCode = 1
}
await server.close()
await new Promise((resolve) => setTimeout(resolve, 100))
console.log(`loopback ok, open ${native.right.openCount()}`)

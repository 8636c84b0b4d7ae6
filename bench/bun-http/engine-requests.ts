/**
 * Benchmark (not a test): the engine's JavaScript per keep-alive request, in process, on
 * whichever runtime runs it (Node, Bun), without sockets or system calls: `--path /hello` (a
 * plain `httpRoute` answering text) or `--path /static/1k.js` (`serveStatic` over the
 * runtime layer's `node:fs` reader, which Node and Bun both use). Each step sends one request
 * on each of `--conns` connections, then lets the event loop turn (the answer may be a promise),
 * as a keep-alive client waiting for its answer does. Figures: this process's CPU time
 * (`process.cpuUsage()`) per request, min and median of `--rounds` rounds of `--ms` ms.
 *
 *   node --import tsx bench/bun-http/engine-requests.ts --path /static/1k.js
 *   node_modules/bun/bin/bun.exe bench/bun-http/engine-requests.ts --path /static/1k.js
 *
 * STATIC_ROOT (default /tmp/s13s/root) must hold 1k.js.
 */
import { parseArgs } from 'node:util'
import { serveStatic } from '../../lib/core/files/serve-static.js'
import { text } from '../../lib/core/http/response.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { countingEngine, type CountingSocket } from '../load/counting-platform.js'
import { cpuNs, minMedian } from '../load/engine-rounds.js'

const { values: opt } = parseArgs({
  options: {
    path: { type: 'string', default: '/hello' },
    conns: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '7' },
    ms: { type: 'string', default: '400' },
  },
})
const conns = Number(opt.conns)
const root = process.env['STATIC_ROOT'] ?? '/tmp/s13s/root'
const routes = [httpRoute('GET', '/hello', () => text('hello world')), ...serveStatic('/static', root)]
const { engine, sockets, clients } = countingEngine(conns, { routes, cors: false })
const head = new TextEncoder().encode(`GET ${opt.path} HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n\r\n`)
const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

// One request on every connection, a fresh copy each (as a socket reads into a fresh buffer).
const step = async (): Promise<number> => {
  for (const client of clients) client.receiver.receive(head.slice())
  await turn()
  return conns
}

const round = async (): Promise<number> => {
  let requests = 0
  const start = cpuNs()
  while (cpuNs() - start < Number(opt.ms) * 1e6) requests += await step()
  return (cpuNs() - start) / requests
}

const s0 = sockets[0] as CountingSocket
// Warm-up: the first answers wait for the disk (and for Node's thread pool) over several turns.
for (let i = 0; i < 20; i++) {
  await step()
  await new Promise((resolve) => setTimeout(resolve, 5))
}
const before = s0.bytes
await step()
const answerBytes = s0.bytes - before
await round()
const figures: number[] = []
for (let r = 0; r < Number(opt.rounds); r++) figures.push(await round())
figures.sort((a, b) => a - b)
if (s0.closed || s0.ended) throw new Error('the connection was closed')
const runtime = 'Bun' in globalThis ? 'bun' : 'node'
console.log(`${runtime} ${opt.path}: ${minMedian(figures, 'ns/req')}; ${answerBytes} B per answer (load ${(await import('node:fs')).readFileSync('/proc/loadavg', 'utf8').split(' ')[0]})`)
const closing = engine.handle.close()
for (const c of clients) engine.closed(c)
await closing

/**
 * Benchmark (not a test): the engine's own work per pipelined HTTP request, in process,
 * without sockets or system calls. The echo example's routes (`examples/echo-routes.ts`) on
 * the engine with Node's buffer pool (`nodePlatform`) and a fake socket layer that only
 * counts the bytes written; each connection is fed chunks of `--batch` wrk-shaped
 * `GET /hello` requests (as bench/load/pipeline.lua sends them), each chunk a fresh copy
 * (as Node reads into a fresh buffer).
 *
 * It isolates the JavaScript the `http-pipelined` workload spends per request in the
 * engine (parse, route, handler, serialize, join, write calls), which the end-to-end run
 * mixes with the kernel's loopback work; each figure is the median of several rounds, in
 * ns per request of this process's CPU time (robust to other load on the machine).
 *
 * Run: `npx tsx bench/http-engine.ts [--batch 10] [--conns 50] [--rounds 7] [--ms 400]`,
 * or the compiled build (`node bench/.tmp/dist/bench/http-engine.js`, as the servers run).
 */
import { parseArgs } from 'node:util'
import { countingEchoEngine } from './load/counting-platform.js'
import { cpuRounds, minMedian } from './load/engine-rounds.js'

const { values: opt } = parseArgs({
  options: {
    batch: { type: 'string', default: '10' },
    conns: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '7' },
    ms: { type: 'string', default: '400' },
  },
})

// What wrk.format(nil, nil, nil, nil) makes for http://127.0.0.1:6001/hello.
const REQUEST = 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n\r\n'
const batch = Number(opt.batch)
const conns = Number(opt.conns)
const chunk = new TextEncoder().encode(REQUEST.repeat(batch))

const { engine, sockets, clients } = countingEchoEngine(conns)

// Feeds one chunk to every connection; answers the requests fed.
const feedAll = (): number => {
  for (let c = 0; c < conns; c++) {
    const copy = Buffer.allocUnsafe(chunk.length)
    copy.set(chunk)
    clients[c]!.receiver.receive(new Uint8Array(copy.buffer, copy.byteOffset, copy.length))
  }
  return conns * batch
}

const s0 = sockets[0]!
const before = { bytes: s0.bytes, writes: s0.writes }
feedAll()
const answerBytes = (s0.bytes - before.bytes) / batch
const writesPerChunk = s0.writes - before.writes
const figures = cpuRounds(feedAll, Number(opt.rounds), Number(opt.ms))
if (s0.closed || s0.ended || !Number.isInteger(answerBytes)) throw new Error(`not answered: ${s0.bytes} bytes, closed ${s0.closed}`)
console.log(
  `engine http, ${batch} pipelined GET /hello per chunk, ${conns} connections: ` +
    `${minMedian(figures, 'ns/req')}; ` +
    `${answerBytes} B per answer, ${writesPerChunk} writes per chunk`,
)
const closing = engine.handle.close()
for (const c of clients) engine.closed(c)
await closing

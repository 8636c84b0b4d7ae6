/**
 * Benchmark (not a test): the engine's own work per pipelined HTTP request, in process,
 * without sockets or system calls. The echo example's routes (`examples/echo-routes.ts`) on
 * the engine with Node's buffer pool (`nodePlatform`) and a fake socket layer that only
 * counts the bytes written; each connection is fed chunks of `--batch` wrk-shaped
 * `GET /hello` requests (as bench/load/pipeline.lua sends them), each chunk a fresh copy
 * (as Node reads into a fresh buffer).
 *
 * `--head browser` feeds a realistic Chrome `fetch()` head instead (about 600 B: the client
 * hints, User-Agent, Accept lines, Referer, a Cookie, `Connection: keep-alive`), where the
 * per-byte cost of the scan shows; `--head wrk` (the default) is the workload's own head.
 *
 * It isolates the JavaScript the `http-pipelined` workload spends per request in the
 * engine (parse, route, handler, serialize, join, write calls), which the end-to-end run
 * mixes with the kernel's loopback work; each figure is the median of several rounds, in
 * ns per request of this process's CPU time (robust to other load on the machine).
 *
 * Run: `npx tsx bench/http-engine.ts [--head wrk|browser] [--batch 10] [--conns 50] [--rounds 7] [--ms 400]`,
 * or the compiled build (`node bench/.tmp/dist/bench/http-engine.js`, as the servers run).
 */
import { parseArgs } from 'node:util'
import { countingEngine } from './load/counting-platform.js'
import { cpuRounds, minMedian } from './load/engine-rounds.js'

const { values: opt } = parseArgs({
  options: {
    head: { type: 'string', default: 'wrk' },
    batch: { type: 'string', default: '10' },
    conns: { type: 'string', default: '50' },
    rounds: { type: 'string', default: '7' },
    ms: { type: 'string', default: '400' },
  },
})

// What wrk.format(nil, nil, nil, nil) makes for http://127.0.0.1:6001/hello.
const WRK = 'GET /hello HTTP/1.1\r\nHost: 127.0.0.1:6001\r\n\r\n'
// What Chrome 124 on Linux sends for `fetch('/hello')` from a page of the same origin.
const BROWSER =
  'GET /hello HTTP/1.1\r\n' +
  'Host: localhost:6001\r\n' +
  'Connection: keep-alive\r\n' +
  'sec-ch-ua: "Chromium";v="124", "Google Chrome";v="124", "Not-A.Brand";v="99"\r\n' +
  'sec-ch-ua-mobile: ?0\r\n' +
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36\r\n' +
  'sec-ch-ua-platform: "Linux"\r\n' +
  'Accept: */*\r\n' +
  'Sec-Fetch-Site: same-origin\r\n' +
  'Sec-Fetch-Mode: cors\r\n' +
  'Sec-Fetch-Dest: empty\r\n' +
  'Referer: http://localhost:6001/\r\n' +
  'Accept-Encoding: gzip, deflate, br, zstd\r\n' +
  'Accept-Language: en-US,en;q=0.9\r\n' +
  'Cookie: theme=dark; session=3f9c2a7e1b0d4c8e9a6f5b2d7c1e0a93\r\n\r\n'
if (opt.head !== 'wrk' && opt.head !== 'browser') throw new Error(`--head wrk or browser, not ${opt.head}`)
const REQUEST = opt.head === 'browser' ? BROWSER : WRK
const batch = Number(opt.batch)
const conns = Number(opt.conns)
const chunk = new TextEncoder().encode(REQUEST.repeat(batch))

const { engine, sockets, clients } = countingEngine(conns)

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
  `engine http, ${opt.head} head (${REQUEST.length} B), ${batch} pipelined GET /hello per chunk, ${conns} connections: ` +
    `${minMedian(figures, 'ns/req')}; ` +
    `${answerBytes} B per answer, ${writesPerChunk} writes per chunk`,
)
const closing = engine.handle.close()
for (const c of clients) engine.closed(c)
await closing

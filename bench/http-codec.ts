/**
 * Benchmark (not a test): requests parsed per second by `parseHttpRequest` beside Node's
 * native llhttp (`HTTPParser` from `node:_http_common`), fed the same bytes in the same run,
 * each building a request object (method, target, header pairs, body) per request.
 * Inputs: a small GET, a 10-header browser GET, a 4 KiB JSON POST; each once per buffer
 * and 10 pipelined in one buffer. Requests per CPU second (`process.cpuUsage`), the two
 * parsers interleaved over several rounds, medians reported with the ratio's min–max.
 * Run: `npx tsx bench/http-codec.ts` (`--quick` for short rounds).
 */
import { createRequire } from 'node:module'
import { DEFAULT_HTTP_LIMITS } from '../lib/core/http/http-limits.js'
import { createHeadScratch } from '../lib/core/http/head-scratch.js'
import { parseHttpRequest } from '../lib/core/http/parse-http-request.js'

/** One measured input. */
export interface BenchRow {
  readonly name: string
  readonly twinport: number
  readonly llhttp: number
  /** Median of the per-round ratios. */
  readonly ratio: number
  readonly minRatio: number
  readonly maxRatio: number
}

const encode = (s: string): Uint8Array => new TextEncoder().encode(s)

const SMALL_GET = 'GET /hello HTTP/1.1\r\nHost: localhost:6001\r\n\r\n'
const BROWSER_GET =
  'GET /api/rooms/lobby/messages?since=1700000000&limit=50 HTTP/1.1\r\n' +
  'Host: localhost:6001\r\n' +
  'Connection: keep-alive\r\n' +
  'sec-ch-ua: "Chromium";v="124", "Not-A.Brand";v="99"\r\n' +
  'sec-ch-ua-mobile: ?0\r\n' +
  'User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36\r\n' +
  'sec-ch-ua-platform: "Linux"\r\n' +
  'Accept: application/json, text/plain, */*\r\n' +
  'Sec-Fetch-Site: same-origin\r\n' +
  'Accept-Encoding: gzip, deflate, br\r\n' +
  'Accept-Language: en-US,en;q=0.9\r\n\r\n'
const JSON_BODY = JSON.stringify({ room: 'lobby', messages: Array.from({ length: 60 }, (_, i) => ({ id: i, text: `message number ${i} of the day` })) }).slice(0, 4096)
const JSON_POST =
  'POST /api/rooms/lobby/messages HTTP/1.1\r\nHost: localhost:6001\r\nContent-Type: application/json\r\n' +
  `Content-Length: ${JSON_BODY.length}\r\n\r\n${JSON_BODY}`

const INPUTS: readonly (readonly [string, string, number])[] = [
  ['small GET', SMALL_GET, 1],
  ['small GET x10 pipelined', SMALL_GET.repeat(10), 10],
  ['browser GET (10 headers)', BROWSER_GET, 1],
  ['browser GET x10 pipelined', BROWSER_GET.repeat(10), 10],
  ['4 KiB JSON POST', JSON_POST, 1],
  ['4 KiB JSON POST x10 pipelined', JSON_POST.repeat(10), 10],
]

// Runs `once` (which parses some requests and answers how many) for about `ms` of CPU time
// and answers requests per CPU second (process.cpuUsage: steadier than wall time on a shared
// machine, since time the process spends descheduled is not counted).
const measure = (once: () => number, ms: number): number => {
  let count = 0
  const start = process.cpuUsage()
  let elapsed = 0
  while (elapsed < ms * 1000) {
    for (let i = 0; i < 200; i++) count += once()
    const used = process.cpuUsage(start)
    elapsed = used.user + used.system
  }
  return (count / elapsed) * 1e6
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

// One scratch for every parse, as a server keeps one.
const scratch = createHeadScratch()

const twinport = (bytes: Uint8Array) => (): number => {
  let buf = bytes
  let n = 0
  while (buf.length > 0) {
    const r = parseHttpRequest(buf, DEFAULT_HTTP_LIMITS, undefined, scratch)
    if (r._tag === 'Left' || r.right._tag === 'NeedMore') throw new Error('bench input did not parse')
    n++
    buf = r.right.rest
  }
  return n
}

interface NodeHttpParser {
  initialize(type: number, resource: object, maxHeaderSize?: number, lenient?: number): void
  execute(data: Uint8Array): number | Error
  [key: number]: unknown
}
interface NodeHttpParserClass {
  new (): NodeHttpParser
  readonly REQUEST: number
  readonly kOnHeaders: number
  readonly kOnHeadersComplete: number
  readonly kOnBody: number
  readonly kOnMessageComplete: number
}

const llhttp = (bytes: Uint8Array) => {
  const common = createRequire(import.meta.url)('node:_http_common') as { HTTPParser: NodeHttpParserClass; methods: string[] }
  const { HTTPParser, methods } = common
  const parser = new HTTPParser()
  parser.initialize(HTTPParser.REQUEST, {})
  let n = 0
  let current: { method: string; url: string; headers: string[]; keepAlive: boolean; body: Uint8Array[] } | undefined
  let last: unknown
  parser[HTTPParser.kOnHeaders] = () => undefined
  parser[HTTPParser.kOnHeadersComplete] = (
    _major: number, _minor: number, headers: string[], method: number, url: string,
    _status: unknown, _msg: unknown, _upgrade: boolean, keepAlive: boolean,
  ) => {
    current = { method: methods[method] ?? '', url, headers, keepAlive, body: [] }
    return 0
  }
  parser[HTTPParser.kOnBody] = (chunk: Uint8Array) => {
    current?.body.push(chunk)
  }
  parser[HTTPParser.kOnMessageComplete] = () => {
    // Join the body as the twinport parser does, so both hand over one body per request.
    if (current !== undefined && current.body.length > 1) current.body = [Buffer.concat(current.body)]
    last = current
    n++
  }
  const buf = Buffer.from(bytes)
  return (): number => {
    n = 0
    const r = parser.execute(buf)
    if (r instanceof Error || last === undefined) throw new Error('llhttp did not parse the bench input')
    return n
  }
}

/**
 * Measures every input and answers one row per input: the median requests per CPU second of
 * each parser over `rounds` interleaved rounds (A B, then B A, ...), and the min–max of the
 * per-round ratios.
 */
export const run = (ms = 300, rounds = 5): BenchRow[] =>
  INPUTS.map(([name, raw]) => {
    const bytes = encode(raw)
    const ours = twinport(bytes)
    const theirs = llhttp(bytes)
    for (let i = 0; i < 3000; i++) {
      ours()
      theirs()
    }
    const a: number[] = []
    const b: number[] = []
    const ratios: number[] = []
    for (let r = 0; r < rounds; r++) {
      let x: number
      let y: number
      if (r % 2 === 0) {
        x = measure(ours, ms)
        y = measure(theirs, ms)
      } else {
        y = measure(theirs, ms)
        x = measure(ours, ms)
      }
      a.push(x)
      b.push(y)
      ratios.push(x / y)
    }
    const t = median(a)
    const l = median(b)
    return { name, twinport: t, llhttp: l, ratio: median(ratios), minRatio: Math.min(...ratios), maxRatio: Math.max(...ratios) }
  })

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick')
  const rows = quick ? run(100, 3) : run()
  console.log(`${'input'.padEnd(32)}${'twinport req/s'.padStart(16)}${'llhttp req/s'.padStart(16)}${'ratio'.padStart(8)}${'min-max'.padStart(12)}`)
  for (const r of rows) {
    const range = `${r.minRatio.toFixed(2)}-${r.maxRatio.toFixed(2)}`
    console.log(`${r.name.padEnd(32)}${fmt(r.twinport).padStart(16)}${fmt(r.llhttp).padStart(16)}${r.ratio.toFixed(2).padStart(8)}${range.padStart(12)}`)
  }
}

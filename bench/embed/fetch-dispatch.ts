/**
 * What a fetch handler's own dispatch costs, with no server: N calls of `handler(request)` in one
 * process for `GET /hello` → `{"hello":"world"}`, twinport's `toFetch` (defaults, `cors: false`)
 * against Hono's `app.fetch` (bare, and with `cors()`), the same `Request` reused (so the host's
 * request building is not counted) and the answer's body left unread. Rounds interleave the
 * contenders (alternating direction); each figure is the median over rounds of the process's CPU
 * time per call (`process.cpuUsage`, which a loaded machine moves less than the wall clock).
 * Runs under Deno, Bun and Node alike. Bench code: node:process is fine here.
 *
 *   node_modules/deno/deno run -A --sloppy-imports --node-modules-dir=manual bench/embed/fetch-dispatch.ts [rounds] [perRound]
 *   node_modules/bun/bin/bun.exe bench/embed/fetch-dispatch.ts [rounds] [perRound]
 */
import process from 'node:process'
import { Hono } from 'hono'
import { cors } from 'hono/cors'
import { silentLogger } from '../../lib/core/log/silent-logger.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { toFetch } from '../../lib/fetch/to-fetch.js'

type Handler = (request: Request) => Response | Promise<Response>

const args = (globalThis as { Deno?: { args: string[] } }).Deno?.args ?? process.argv.slice(2)
const ROUNDS = Number(args[0] ?? 7)
const PER_ROUND = Number(args[1] ?? 50_000)
const ONLY = args[2]?.split(',')

const routes = [httpRoute('GET', '/hello', () => ({ hello: 'world' }))]
const hono = new Hono()
hono.get('/hello', (c) => c.json({ hello: 'world' }))
const honoCors = new Hono()
honoCors.use(cors())
honoCors.get('/hello', (c) => c.json({ hello: 'world' }))
const all: Record<string, Handler> = {
  twinport: toFetch({ logger: silentLogger, routes }),
  'twinport-nocors': toFetch({ logger: silentLogger, routes, cors: false }),
  'twinport-nometrics': toFetch({ logger: silentLogger, routes, cors: false, metrics: false }),
  hono: (request) => hono.fetch(request),
  'hono-cors': (request) => honoCors.fetch(request),
}
const contenders: Record<string, Handler> = ONLY === undefined ? all : Object.fromEntries(ONLY.map((n) => [n, all[n]!]))
const request = new Request('http://127.0.0.1:8080/hello')

const names = Object.keys(contenders)
const per = new Map<string, number[]>(names.map((n) => [n, []]))
let keep = 0
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 === 0 ? names : [...names].reverse()) {
    const handler = contenders[name]!
    const before = process.cpuUsage()
    for (let i = 0; i < PER_ROUND; i++) {
      const answer = handler(request)
      keep += answer instanceof Promise ? (await answer).status : answer.status
    }
    const used = process.cpuUsage(before)
    per.get(name)!.push(((used.user + used.system) * 1000) / PER_ROUND)
  }
}
const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const base = median(per.get(names.includes('hono') ? 'hono' : names[0]!)!)
const runtime = 'Deno' in globalThis ? 'deno' : 'Bun' in globalThis ? 'bun' : 'node'
console.log(`${runtime}: ${ROUNDS} rounds × ${PER_ROUND} calls (checksum ${keep})`)
console.log('| handler | CPU ns per call (median) | vs bare Hono |')
console.log('|---|---|---|')
for (const name of names) console.log(`| ${name} | ${median(per.get(name)!).toFixed(0)} | ${(median(per.get(name)!) / base).toFixed(2)}× |`)

/**
 * Benchmark (not a test): what the engine's JavaScript holds per idle WebSocket, by
 * constructor. A server child (the echo routes, `transport` from `--transport`, started with
 * `--expose-gc`) takes `--base` idle upgraded connections, then `--clients` in all; after a full
 * GC at each step it writes a heap snapshot, and this process counts the snapshots' nodes by
 * constructor (self sizes) and prints the difference divided by the extra connections: the
 * objects and bytes one idle connection adds to the JavaScript heap (native and kernel memory
 * not included; `ws-idle` in bench/run.ts measures RSS).
 *
 * Loopback only, bounded in count. Run: `npx tsx bench/idle-heap.ts --transport native`
 * (`--clients 10000 --base 500 --top 25`; `--rss-only`: no snapshots, the RSS figures alone, as
 * `ws-idle` reads them and after a full GC; `--path /bcast`: clients in the echo
 * app's room; `--settle 12000`: read them 12 s after the last
 * connection instead of 1 s, when V8's memory reducer has had time to shrink the young generation;
 * `--http /hello`: idle keep-alive HTTP connections instead, each after one GET of that path
 * answered, the server's keep-alive time-out raised to 10 minutes; `--http /events`: the echo
 * app's Server-Sent Events clients, each after its stream's head). Snapshots go to bench/.tmp/ and are removed after.
 */
import { fork } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync } from 'node:fs'
import { connect, type Socket } from 'node:net'
import { parseArgs } from 'node:util'

const request = (path: string): string =>
  `GET ${path} HTTP/1.1` +
  '\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
  'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n'

interface Usage {
  readonly rss: number
  readonly rssAfterGc: number
  readonly heapUsed: number
  readonly heapTotal: number
  readonly external: number
}

interface Row {
  count: number
  size: number
}

// ---- the server child -------------------------------------------------------------------

// One keep-alive request, answered (or its event stream begun), after which the connection stays open.
const httpRequest = (path: string): string => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`

const serve = async (transport: 'net' | 'native', http: boolean): Promise<void> => {
  const { runServer } = await import('../lib/node/run-server.js')
  const { echoOptions, echoRoutes } = await import('../examples/echo-routes.js')
  const v8 = await import('node:v8')
  const limits = http ? { ...echoOptions.limits, keepAliveTimeoutMs: 600_000 } : echoOptions.limits
  const server = await runServer({ host: '127.0.0.1', port: 0, routes: echoRoutes, ...echoOptions, limits, transport, logger: undefined })
  process.on('message', (message: { snap: string }) => {
    const rss = process.memoryUsage().rss
    const gc = (globalThis as { gc?: () => void }).gc
    gc?.()
    gc?.()
    const usage = process.memoryUsage()
    if (message.snap !== '') v8.writeHeapSnapshot(message.snap)
    if (process.env.IDLE_HEAP_SPACES === '1') console.error(v8.getHeapSpaceStatistics().map((s) => `${s.space_name} size ${(s.space_size / 1048576).toFixed(1)} used ${(s.space_used_size / 1048576).toFixed(1)}`).join('\n'))
    process.send?.({ done: message.snap, rss, rssAfterGc: usage.rss, heapUsed: usage.heapUsed, heapTotal: usage.heapTotal, external: usage.external })
  })
  process.send?.({ port: server.address.port })
}

// ---- this process -----------------------------------------------------------------------

// Self sizes and counts by `type:name` for objects, by type for the rest.
const tally = (path: string): Map<string, Row> => {
  const snapshot = JSON.parse(readFileSync(path, 'utf8')) as {
    snapshot: { meta: { node_fields: string[]; node_types: [string[]] } }
    nodes: number[]
    strings: string[]
  }
  const fields = snapshot.snapshot.meta.node_fields
  const types = snapshot.snapshot.meta.node_types[0]
  const width = fields.length
  const at = { type: fields.indexOf('type'), name: fields.indexOf('name'), size: fields.indexOf('self_size') }
  const rows = new Map<string, Row>()
  const { nodes, strings } = snapshot
  for (let i = 0; i < nodes.length; i += width) {
    const type = types[nodes[i + at.type] as number] as string
    const name = type === 'object' || type === 'closure' || type === 'native' ? `${type}:${strings[nodes[i + at.name] as number]}` : type
    const row = rows.get(name) ?? { count: 0, size: 0 }
    row.count++
    row.size += nodes[i + at.size] as number
    rows.set(name, row)
  }
  return rows
}

const open = (port: number, head: string, count: number, into: Socket[]): Promise<void> =>
  new Promise((resolve, reject) => {
    let upgraded = 0
    let started = 0
    const next = (): void => {
      while (started < count && started - upgraded < 200) {
        started++
        const socket = connect(port, '127.0.0.1', () => socket.write(head))
        socket.once('data', () => {
          if (++upgraded === count) resolve()
          else next()
        })
        socket.on('error', reject)
        into.push(socket)
      }
    }
    next()
  })

const main = async (): Promise<void> => {
  const { values } = parseArgs({
    options: {
      serve: { type: 'string' },
      transport: { type: 'string', default: 'net' },
      clients: { type: 'string', default: '10000' },
      base: { type: 'string', default: '500' },
      top: { type: 'string', default: '25' },
      'rss-only': { type: 'boolean', default: false },
      settle: { type: 'string', default: '1000' },
      path: { type: 'string', default: '/' },
      http: { type: 'string', default: '' },
    },
  })
  if (values.serve !== undefined) return serve(values.serve === 'native' ? 'native' : 'net', values.http !== '')
  const clients = Number(values.clients)
  const base = Number(values.base)
  mkdirSync('bench/.tmp', { recursive: true })
  const child = fork(new URL(import.meta.url).pathname, ['--serve', values.transport, ...(values.http !== '' ? ['--http', values.http] : [])], { execArgv: ['--expose-gc', ...(process.env.IDLE_HEAP_NODE_FLAGS ?? '').split(' ').filter((flag) => flag !== ''), '--import', 'tsx'] })
  const reply = <T>(): Promise<T> => new Promise((resolve) => child.once('message', (message) => resolve(message as T)))
  const { port } = await reply<{ port: number }>()
  const snap = async (name: string): Promise<{ rows: Map<string, Row>; usage: Usage }> => {
    await new Promise((resolve) => setTimeout(resolve, Number(values.settle)))
    const path = values['rss-only'] === true ? '' : `bench/.tmp/idle-heap-${name}.heapsnapshot`
    const done = reply<Usage>()
    child.send({ snap: path })
    const usage = await done
    const rows = path === '' ? new Map<string, Row>() : tally(path)
    if (path !== '') rmSync(path)
    return { rows, usage }
  }
  const sockets: Socket[] = []
  const head = values.http !== '' ? httpRequest(values.http) : request(values.path)
  await open(port, head, base, sockets)
  const { rows: before, usage: was } = await snap('base')
  await open(port, head, clients - base, sockets)
  const { rows: after, usage: now } = await snap('all')
  const extra = clients - base
  const per = (key: keyof Usage): string => `${((now[key] - was[key]) / extra / 1024).toFixed(2)} KiB`
  console.log(`per connection: RSS ${per('rss')} (after a full GC ${per('rssAfterGc')}), heap used after GC ${per('heapUsed')} of ${per('heapTotal')} committed, external ${per('external')}`)
  const diff = [...after].map(([name, row]) => {
    const was = before.get(name) ?? { count: 0, size: 0 }
    return { name, count: (row.count - was.count) / extra, size: (row.size - was.size) / extra }
  })
  diff.sort((a, b) => b.size - a.size)
  const total = diff.reduce((sum, row) => sum + row.size, 0)
  console.log(`transport ${values.transport}: ${extra} idle ${values.http !== '' ? `HTTP (GET ${values.http})` : 'WebSocket'} connections, JS heap per connection ${total.toFixed(0)} B`)
  for (const row of diff.slice(0, Number(values.top))) console.log(`${row.size.toFixed(1).padStart(8)} B ${row.count.toFixed(2).padStart(6)} × ${row.name}`)
  for (const socket of sockets) socket.destroy()
  child.kill()
}

await main()

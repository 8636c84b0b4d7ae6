/**
 * `examples/echo.ts`'s `GET /metrics` scraped by a REAL Prometheus (the Debian package's
 * `/usr/bin/prometheus`, started here on a free port in a temporary directory with a config
 * scraping the echo server every second), the values queried back through Prometheus's HTTP
 * API (`/api/v1/query`); and `GET /health` (DESIGN §8's contract). The server runs in the
 * runtime TWINPORT_TARGET names; Prometheus and the clients are the same on every runtime.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { scriptCommand, targetRuntime } from '../support/runtimes.js'

const runtime = targetRuntime()
const target = scriptCommand(runtime, 'examples/echo.ts')
const PROMETHEUS = process.env.PROMETHEUS ?? '/usr/bin/prometheus'
const WAIT_MS = 30_000

interface Ctx {
  echo: ChildProcess | undefined
  prometheus: ChildProcess | undefined
  port: string
  api: string
  dir: string
}

const prom = suite<Ctx>(`examples/echo.ts /metrics scraped by Prometheus, on ${runtime}`, { echo: undefined, prometheus: undefined, port: '', api: '', dir: '' })

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0))
    })
  })

// Resolves once `look` finds what it wants in the process's output (stdout and stderr).
const waitForOutput = (child: ChildProcess, what: string, look: (seen: string) => string | undefined): Promise<string> =>
  new Promise((resolve, reject) => {
    let seen = ''
    const timer = setTimeout(() => reject(new Error(`${what}: nothing within ${WAIT_MS} ms\n${seen}`)), WAIT_MS)
    const read = (chunk: Buffer): void => {
      seen += chunk.toString('utf8')
      const found = look(seen)
      if (found !== undefined) {
        clearTimeout(timer)
        resolve(found)
      }
    }
    child.stdout?.on('data', read)
    child.stderr?.on('data', read)
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${what}: the process exited (${code})\n${seen}`))
    })
  })

const stop = async (child: ChildProcess | undefined): Promise<void> => {
  if (child === undefined || child.exitCode !== null) return
  const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await gone
  clearTimeout(timer)
}

interface Sample {
  readonly metric: Readonly<Record<string, string>>
  readonly value: readonly [number, string]
}

// One instant query through Prometheus's HTTP API.
const query = async (api: string, promql: string): Promise<readonly Sample[]> => {
  const res = await fetch(`${api}/api/v1/query?query=${encodeURIComponent(promql)}`)
  const body = (await res.json()) as { status: string; data?: { resultType: string; result: readonly Sample[] } }
  assert.is(body.status, 'success', `query ${promql}`)
  return body.data?.result ?? []
}

// Polls `promql` until `ok` holds for its first sample's value (Prometheus scrapes every second).
const eventually = async (api: string, promql: string, ok: (value: number) => boolean): Promise<Sample> => {
  const until = Date.now() + WAIT_MS
  let last: readonly Sample[] = []
  while (Date.now() < until) {
    last = await query(api, promql)
    const first = last[0]
    if (first !== undefined && ok(Number(first.value[1]))) return first
    await new Promise((r) => setTimeout(r, 250))
  }
  throw new Error(`${promql}: not as expected within ${WAIT_MS} ms, last ${JSON.stringify(last)}`)
}

prom.before(async (ctx) => {
  const echo = spawn(target.command, [...target.args], {
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', FORCE_COLOR: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  ctx.echo = echo
  ctx.port = await waitForOutput(echo, 'echo server start', (seen) => /listening on 127\.0\.0\.1:(\d+)/.exec(seen)?.[1])
  if (!existsSync(PROMETHEUS)) throw new Error(`${PROMETHEUS} is missing: .ci/run installs the prometheus package`)
  ctx.dir = mkdtempSync(join(tmpdir(), 'twinport-prometheus-'))
  const config = join(ctx.dir, 'prometheus.yml')
  writeFileSync(
    config,
    [
      'global:',
      '  scrape_interval: 1s',
      '  evaluation_interval: 1s',
      'scrape_configs:',
      '  - job_name: twinport',
      '    metrics_path: /metrics',
      '    static_configs:',
      `      - targets: ['127.0.0.1:${ctx.port}']`,
      '',
    ].join('\n'),
  )
  const webPort = await freePort()
  ctx.api = `http://127.0.0.1:${webPort}`
  const prometheus = spawn(
    PROMETHEUS,
    [`--config.file=${config}`, `--storage.tsdb.path=${join(ctx.dir, 'data')}`, `--web.listen-address=127.0.0.1:${webPort}`, '--log.level=warn'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  ctx.prometheus = prometheus
  prometheus.stdout.resume()
  prometheus.stderr.resume()
  const until = Date.now() + WAIT_MS
  for (;;) {
    const ready = await fetch(`${ctx.api}/-/ready`).then((r) => r.ok, () => false)
    if (ready) break
    if (prometheus.exitCode !== null || Date.now() > until) throw new Error('prometheus did not become ready')
    await new Promise((r) => setTimeout(r, 200))
  }
})

prom.after(async (ctx) => {
  await stop(ctx.prometheus)
  await stop(ctx.echo)
  if (ctx.dir !== '') rmSync(ctx.dir, { recursive: true, force: true })
})

prom('GET /health :: 200 with a JSON body saying the server is ready, and /health/live', async (ctx) => {
  const res = await fetch(`http://127.0.0.1:${ctx.port}/health`)
  assert.is(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /application\/json/)
  const body = (await res.json()) as { status: string; ready: boolean; live: boolean; reasons: readonly string[] }
  assert.equal({ status: body.status, ready: body.ready, live: body.live, reasons: body.reasons }, { status: 'ready', ready: true, live: true, reasons: [] })
  assert.is((await fetch(`http://127.0.0.1:${ctx.port}/health/live`)).status, 200)
})

prom('GET /metrics :: Prometheus text: the request duration histogram and the open-connections gauge', async (ctx) => {
  const res = await fetch(`http://127.0.0.1:${ctx.port}/metrics`)
  assert.is(res.status, 200)
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/)
  const text = await res.text()
  assert.match(text, /^# TYPE http_server_request_duration_seconds histogram$/m)
  assert.match(text, /^# TYPE twinport_server_open_connections gauge$/m)
})

prom('prometheus :: scrapes /metrics and reads back requests by route template, and open WebSocket connections', async (ctx) => {
  const base = `http://127.0.0.1:${ctx.port}`
  for (let i = 0; i < 5; i++) await (await fetch(`${base}/hello`)).arrayBuffer()
  await (await fetch(`${base}/no/such/path`)).arrayBuffer()
  const sockets = await Promise.all(
    [0, 1].map(
      () =>
        new Promise<WebSocket>((resolve, reject) => {
          const ws = new WebSocket(`ws://127.0.0.1:${ctx.port}/bcast`)
          ws.once('open', () => resolve(ws))
          ws.once('error', reject)
        }),
    ),
  )
  try {
    await eventually(ctx.api, 'up{job="twinport"}', (v) => v === 1)
    const hello = await eventually(ctx.api, 'http_server_request_duration_seconds_count{http_route="/hello",http_request_method="GET"}', (v) => v >= 5)
    assert.is(hello.metric.http_response_status_code, '2xx')
    // No route: the raw path is never a label; the route label is empty.
    const missing = await eventually(ctx.api, 'http_server_request_duration_seconds_count{http_response_status_code="4xx",http_route=""}', (v) => v >= 1)
    assert.is(missing.metric.http_route, undefined)
    const buckets = await query(ctx.api, 'http_server_request_duration_seconds_bucket{http_route="/hello",le="+Inf"}')
    assert.ok(Number(buckets[0]?.value[1]) >= 5)
    await eventually(ctx.api, 'twinport_server_open_connections{network_transport="websocket"}', (v) => v === 2)
    await eventually(ctx.api, 'twinport_room_members', (v) => v === 2)
  } finally {
    for (const ws of sockets) ws.close()
  }
  await eventually(ctx.api, 'twinport_server_open_connections{network_transport="websocket"}', (v) => v === 0)
})

prom.run()

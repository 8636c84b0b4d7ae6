import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { chartGroups } from '../../../bench/report/chart-groups.js'
import { formatNumber } from '../../../bench/report/format-number.js'
import { renderResults } from '../../../bench/report/render-results.js'
import { cpuTable, goalsTable, runtimeTable } from '../../../bench/report/render-summary.js'
import { renderSvg } from '../../../bench/report/render-svg.js'
import type { Report, Sample } from '../../../bench/report/sample.js'
import { SIZING, WORKLOADS } from '../../../bench/load/workloads.js'

const sample = (workload: string, contender: Sample['contender'], round: number, value: number, extra?: Record<string, number>): Sample => ({
  workload, contender, round, value, serverCpuUs: 10, clientCpuUs: 5, otherCores: 0, disturbed: round === 2, ...(extra === undefined ? {} : { extra }),
})

const report: Report = {
  startedAt: '2026-01-01T00:00:00.000Z',
  quick: true,
  sizing: SIZING.full,
  machine: '2 × test CPU.',
  command: 'npm run bench',
  elapsedS: 600,
  unavailable: { socketio: 'not installed' },
  samples: [
    sample('http-keepalive', 'node-http', 1, 40_000),
    sample('http-keepalive', 'node-http', 2, 42_000),
    sample('http-keepalive', 'node-http', 3, 38_000),
    sample('http-keepalive', 'twinport', 1, 90_000),
    sample('http-keepalive', 'raw-net', 1, 100_000),
    sample('http-keepalive', 'twinport-bun', 1, 140_000),
    sample('http-keepalive', 'raw-bun', 1, 200_000),
    sample('http-keepalive', 'twinport-deno', 1, 50_000),
    sample('http-keepalive', 'deno-serve', 1, 80_000),
    sample('ws-latency', 'ws', 1, 0.3, { p99: 1.5, max: 4 }),
    sample('ws-idle', 'twinport', 1, 2.5, { connections: 10_000 }),
    sample('ws-idle', 'ws', 1, 6.2, { connections: 10_000 }),
    sample('ws-idle', 'raw-net', 1, 2.0, { connections: 10_000 }),
    sample('ws-idle', 'twinport-bun', 1, 3.5, { connections: 10_000 }),
  ],
  failures: [{ workload: 'http-keepalive', contender: 'fastify', round: 1, reason: 'server failed: boom' }],
  micro: [
    { file: 'bench/ws-codec.ts', result: [{ name: 'decode 32 B', opsPerSec: 1234567.8 }] },
    { file: 'bench/http-codec.ts', note: 'not written yet; skipped.' },
    { file: 'bench/route-match.ts', result: 'plain text' },
    { file: 'bench/other.ts', result: { a: 1 } },
  ],
}

test('formatNumber :: separators, significant digits, dash', () => {
  assert.is(formatNumber(40123.4), '40,123')
  assert.is(formatNumber(123.4), '123')
  assert.is(formatNumber(12.34), '12.3')
  assert.is(formatNumber(9.734), '9.73')
  assert.is(formatNumber(0.28123), '0.281')
  assert.is(formatNumber(Number.NaN), '–')
})

test('renderResults :: medians, min–max, ratios to the reference and to the ceiling, failures and micro rows', () => {
  const md = renderResults(report, WORKLOADS)
  assert.match(md, '| node:http | 40,000 | 38,000–42,000 | 1.00× | 0.40× | 10.0 | 5.00 | 3 | 1 |')
  assert.match(md, '| **twinport on Bun** | 140,000 | 140,000–140,000 | 3.50× | 0.70× |')
  assert.match(md, '**socket.io not available:** not installed')
  assert.match(md, '- round 1, fastify: server failed: boom')
  assert.match(md, '| p99 ms |')
  assert.match(md, '| decode 32 B | 1,234,568 |')
  assert.match(md, 'not written yet; skipped.')
  assert.match(md, '```\nplain text\n```')
  assert.match(md, '"a": 1')
  assert.match(md, '**Quick run**')
  assert.match(renderResults({ ...report, micro: [] }, WORKLOADS), 'Not run in this invocation (`--no-micro`).')
})

test('renderResults :: contenders the run never tried are left out of the tables', () => {
  const md = renderResults(report, WORKLOADS)
  assert.not.match(md, '| twinport on Node, --max-semi-space-size=1 |')
  assert.not.match(md, /^\| raw Deno\.listen \(ceiling\) \| (\d|not available)/m)
  assert.match(md, /^\| Deno\.serve \| 80,000 \|/m)
})

test('runtimeTable :: each runtime beside its own ceiling, a dash where nothing ran', () => {
  const rows = runtimeTable(report, WORKLOADS)
  const keepalive = rows.find((r) => r.startsWith('| HTTP GET /hello, keep-alive'))
  assert.is(keepalive, '| HTTP GET /hello, keep-alive, 50 connections (req/s) | 90,000 (0.90×) | 40,000 (0.40×) | 100,000 | 140,000 (0.70×) | – | 200,000 | 50,000 (–) | 80,000 (–) | – |')
  assert.match(rows[0] ?? '', '| **Node**: twinport | node:http / ws | raw node:net (ceiling) | **Bun**: twinport |')
})

test('cpuTable :: server CPU per operation beside the same runtime\'s ceiling', () => {
  const keepalive = cpuTable(report, WORKLOADS).find((r) => r.startsWith('| HTTP GET /hello, keep-alive'))
  assert.is(keepalive, '| HTTP GET /hello, keep-alive, 50 connections (µs/op) | 10.0 (1.00×) | 10.0 (1.00×) | 10.0 | 10.0 (1.00×) | – | 10.0 | 10.0 (–) | 10.0 (–) | – |')
})

test('goalsTable :: issue 13 per runtime, against the same run; issue 6 against the Node peers', () => {
  const thirteen = goalsTable(report, WORKLOADS, 13).join('\n')
  assert.match(thirteen, '| Node | HTTP GET /hello, keep-alive, 50 connections | 90,000 req/s | raw node:net (ceiling) 100,000 req/s | 0.90× | ≥ 0.9× raw node:net (ceiling) | met |')
  assert.match(thirteen, '| Bun | HTTP GET /hello, keep-alive, 50 connections | 140,000 req/s | twinport on Node 90,000 req/s | 1.56× | ≥ 1.5× twinport on Node | met |')
  assert.match(thirteen, '| Node | Memory per idle WebSocket connection (server RSS delta / connections) | 2.50 KiB | raw node:net (ceiling) 2.00 KiB | 1.25× | ≤ 1.1× raw node:net (ceiling) | not met |')
  assert.match(thirteen, '| Bun | Memory per idle WebSocket connection (server RSS delta / connections) | 3.50 KiB | ws (+bufferutil) 6.20 KiB | 0.56× | ≤ 3 KiB | not met |')
  assert.match(thirteen, '| Deno | HTTP GET /hello, keep-alive, 50 connections | 50,000 req/s | Deno.serve 80,000 req/s | 0.63× | report, beside Deno.serve | n/a |')
  const lines = thirteen.split('\n').slice(2)
  const firstBun = lines.findIndex((l) => l.startsWith('| Bun'))
  assert.ok(lines.slice(0, firstBun).every((l) => l.startsWith('| Node')), 'Node rows come first')
  const six = goalsTable(report, WORKLOADS, 6).join('\n')
  assert.match(six, '| Node | HTTP GET /hello, keep-alive, 50 connections | 90,000 req/s | node:http 40,000 req/s | 2.25× | ≥ 2× node:http | met |')
  assert.match(six, '| 2.50 KiB | ws (+bufferutil) 6.20 KiB | 0.40× | ≤ 3 KiB | met |')
})

test('renderResults :: a banner when most runs were disturbed; every target of a workload in words', () => {
  assert.not.match(renderResults(report, WORKLOADS), 'runs were disturbed**')
  assert.match(renderResults(report, WORKLOADS), '1 of 14 runs were disturbed by other processes (counted per row below).')
  const busy = { ...report, samples: report.samples.map((s) => ({ ...s, disturbed: true })) }
  assert.match(renderResults(busy, WORKLOADS), `**${report.samples.length} of ${report.samples.length} runs were disturbed**`)
  assert.match(renderResults(report, WORKLOADS), 'twinport on Deno report, beside Deno.serve (issue 13); twinport on Node report, beside ws (+bufferutil) (issue 6). CPU per message.')
})

test('chartGroups + renderSvg :: a bar per contender against its own ceiling, targets per bar, text escaped', () => {
  const groups = chartGroups(report, WORKLOADS)
  const keepalive = groups.find((g) => g.title.startsWith('HTTP GET /hello, keep'))
  assert.equal(keepalive?.bars.map((b) => [b.label, b.advantage]), [
    ['twinport on Node', 0.9], ['node:http', 0.4], ['fastify', Number.NaN], ['twinport on Bun', 0.7], ['twinport on Deno', Number.NaN], ['Deno.serve', Number.NaN],
  ])
  // Node: 0.9× its ceiling; Bun: 1.5× twinport on Node (135,000) over raw Bun.listen (200,000).
  assert.is(keepalive?.bars[0]?.target, 0.9)
  assert.is(keepalive?.bars[3]?.target, 0.675)
  assert.ok(Number.isNaN(keepalive?.bars[1]?.target ?? Number.NaN))
  const svg = renderSvg('a <b> & "c"', groups)
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'))
  assert.match(svg, 'a &lt;b&gt; &amp; &quot;c&quot;')
  assert.match(svg, '0.70×')
  assert.match(svg, 'not available')
  assert.match(svg, 'stroke="#c53030"')
})

test.run()

test('goalsTable :: the reach column from the same run (ceiling and load generator)', () => {
  const bound: Report = {
    ...report,
    samples: [
      { ...sample('http-keepalive', 'twinport', 1, 84_000), clientCpuUs: 10 },
      { ...sample('http-keepalive', 'twinport-bun', 1, 114_000), clientCpuUs: 8.6 },
      { ...sample('http-keepalive', 'raw-bun', 1, 121_000), clientCpuUs: 8.2 },
      sample('http-keepalive', 'raw-net', 1, 100_000),
    ],
  }
  const bun = goalsTable(bound, WORKLOADS, 13).find((l) => l.startsWith('| Bun | HTTP GET /hello, keep-alive'))
  assert.is(bun, '| Bun | HTTP GET /hello, keep-alive, 50 connections | 114,000 req/s | twinport on Node 84,000 req/s | 1.36× | ≥ 1.5× twinport on Node | not met | ' +
    'raw Bun.listen (ceiling) itself reaches 1.44×; the load generator would need 1.08 cores (it has one) |')
  const node = goalsTable(bound, WORKLOADS, 13).find((l) => l.startsWith('| Node | HTTP GET /hello, keep-alive'))
  assert.is(node, '| Node | HTTP GET /hello, keep-alive, 50 connections | 84,000 req/s | raw node:net (ceiling) 100,000 req/s | 0.84× | ≥ 0.9× raw node:net (ceiling) | not met |  |')
})

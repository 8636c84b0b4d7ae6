import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { formatNumber } from '../../../bench/report/format-number.js'
import { chartGroups, renderResults } from '../../../bench/report/render-results.js'
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
    sample('ws-latency', 'ws', 1, 0.3, { p99: 1.5, max: 4 }),
    sample('ws-idle', 'twinport', 1, 2.5, { connections: 10_000 }),
    sample('ws-idle', 'ws', 1, 6.2, { connections: 10_000 }),
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

test('renderResults :: medians, min–max, ratios, verdicts, failures and micro rows', () => {
  const md = renderResults(report, WORKLOADS)
  assert.match(md, '| node:http | 40,000 | 38,000–42,000 | 1.00× | 10.0 | 5.00 | 3 | 1 |')
  assert.match(md, '| HTTP GET /hello, keep-alive, 50 connections | 90,000 req/s | 40,000 req/s | 2.25× | ≥ 2× node:http | met |')
  assert.match(md, '| 2.50 KiB | 6.20 KiB | 0.40× | ≤ 3 KiB | met |')
  assert.match(md, '**socket.io not available:** not installed')
  assert.match(md, '- round 1, fastify: server failed: boom')
  assert.match(md, '| p99 ms |')
  assert.match(md, '| decode 32 B | 1,234,568 |')
  assert.match(md, 'not written yet; skipped.')
  assert.match(md, '```\nplain text\n```')
  assert.match(md, '"a": 1')
  assert.match(md, '**Quick run**')
})

test('renderResults :: a banner when most runs were disturbed; the report-only target in words', () => {
  assert.not.match(renderResults(report, WORKLOADS), 'runs were disturbed')
  const busy = { ...report, samples: report.samples.map((s) => ({ ...s, disturbed: true })) }
  assert.match(renderResults(busy, WORKLOADS), '**7 of 7 runs were disturbed**')
  assert.match(renderResults(report, WORKLOADS), 'Target: none, reported beside ws (+bufferutil). CPU per message.')
})

test('chartGroups + renderSvg :: a bar per contender, the target marked, text escaped', () => {
  const groups = chartGroups(report, WORKLOADS)
  const keepalive = groups.find((g) => g.title.startsWith('HTTP GET /hello, keep'))
  assert.is(keepalive?.target, 2)
  assert.equal(keepalive?.bars.map((b) => [b.label, Number.isFinite(b.advantage)]), [['twinport', true], ['fastify', false], ['raw node:net (ceiling)', false]])
  assert.ok(!groups.some((g) => g.title.includes('latency')))
  const svg = renderSvg('a <b> & "c"', groups)
  assert.ok(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'))
  assert.match(svg, 'a &lt;b&gt; &amp; &quot;c&quot;')
  assert.match(svg, '2.25×')
  assert.match(svg, 'not available')
  assert.match(svg, 'stroke="#c53030"')
})

test.run()

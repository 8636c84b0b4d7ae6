import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { renderStreaming, type StreamRun, type StreamWorkload } from '../../../bench/streaming/render-streaming.js'

const MIB = 1024 * 1024

const run = (workload: StreamWorkload, contender: string, mibPerS: number, extra: Partial<StreamRun> = {}): StreamRun => ({
  workload,
  contender,
  round: 1,
  ok: true,
  ms: (256 / mibPerS) * 1000,
  bytes: 256 * MIB,
  rssGrowth: 2 * MIB,
  serverCpuMs: 100,
  quiet: true,
  settled: true,
  ...extra,
})

const CTX = { command: 'cmd', date: '2026-01-01', machine: 'm', sizes: 's', rounds: 1, compiled: true, load: 'load average 1.0', notes: [] }

test('renderStreaming :: the warm median judged against the references, the cold first run in its own columns', () => {
  const text = renderStreaming([
    run('download', 'twinport', 900, { coldMs: (256 / 300) * 1000 }),
    run('download', 'raw-net', 1000, { coldMs: (256 / 600) * 1000 }),
    run('download', 'node-http', 500, { coldMs: (256 / 200) * 1000 }),
  ], CTX)
  assert.match(text, '| twinport | 900 | 900–900 | 0.90× | 1.80× | 300 | 0.50× | 2.0 / 2.0 | 400 | 1/1 |')
  assert.match(text, '- twinport ≥ 0.9× raw node:net: **met**')
  assert.match(text, '- twinport ≥ 1.5× node:http + res.write: **met**')
  assert.match(text, 'Machine: load average 1.0.')
})

test('renderStreaming :: the upload path without the sink, CPU against fastify; an unsettled baseline said', () => {
  const text = renderStreaming([
    run('parse1g', 'twinport', 100, { bytes: 1024 * MIB, ms: 10_000, serverCpuMs: 2000, settled: false }),
    run('parse1g', 'fastify', 50, { bytes: 1024 * MIB, ms: 20_000, serverCpuMs: 5000 }),
  ], CTX)
  assert.match(text, '### The upload path without the sink')
  assert.match(text, '| twinport | 10.00 | 102 | 2,000 | 0.40× | 1/1 |')
  assert.match(text, 'In 1 of 2 runs the server\'s RSS had not held still')
})

test.run()

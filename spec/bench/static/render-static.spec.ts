import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { renderStatic, type StaticRun } from '../../../bench/static/render-static.js'
import { nginxConfig } from '../../../bench/static/start-nginx.js'
import { TARGETS, WORKLOADS } from '../../../bench/static/workloads.js'

const run = (round: number, contender: string, requestsPerSecond: number, workload = 'file-1k'): StaticRun => ({
  round,
  workload,
  contender,
  requestsPerSecond,
  bodyBytes: 1024,
  errors: 0,
  serverUsPerRequest: 1e6 / requestsPerSecond,
  clientUsPerRequest: 10,
  otherCores: 0.5,
})

test('renderStatic :: medians over rounds, min–max, and a target judged on the ratio of medians', () => {
  const runs = [run(0, 'twinport', 30_000), run(1, 'twinport', 10_000), run(2, 'twinport', 20_000), run(0, 'fastify-static', 10_000), run(1, 'fastify-static', 12_000), run(2, 'fastify-static', 14_000)]
  const text = renderStatic('T', 'cmd', WORKLOADS, TARGETS, runs, [])
  assert.match(text, '| twinport | 20,000 | 10,000–30,000 | 3 |')
  assert.match(text, '| file-1k | twinport ÷ fastify-static | 1.67 | 1.67 | ≥ 1.5 | met |')
  assert.match(text, '| file-1k | twinport ÷ express | – | – | ≥ 2 | not measured |')
  assert.not.match(text, 'gzip-100k')
})

test('renderStatic :: a target missed, a ratio only reported, and failures listed', () => {
  const runs = [run(0, 'twinport', 5000), run(0, 'nginx', 20_000)]
  const text = renderStatic('T', 'cmd', WORKLOADS, TARGETS, runs, [{ contender: 'express', workload: 'file-1k', reason: 'status 500' }])
  assert.match(text, '| file-1k | twinport ÷ nginx | 0.25 | 0.25 | ≥ 0.6 | not met |')
  assert.match(text, '- express (file-1k): status 500')
})

test('nginxConfig :: one worker, no access log, sendfile, the root aliased at /static/ on loopback', () => {
  const conf = nginxConfig('/tmp/p', '/srv/files', 20001)
  assert.match(conf, 'worker_processes 1;')
  assert.match(conf, 'access_log off;')
  assert.match(conf, 'sendfile on;')
  assert.match(conf, 'listen 127.0.0.1:20001;')
  assert.match(conf, 'location /static/ { alias /srv/files/; }')
})

test.run()

/**
 * The metrics registry and its Prometheus text: names converted per the OpenTelemetry rules,
 * cumulative histogram buckets, label escaping, constant labels, bounded label sets, gauges
 * read at collection. Pure: runs in Node, Bun and Deno.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { createMetricsRegistry } from '../../../lib/core/metrics/metrics-registry.js'
import { prometheusName } from '../../../lib/core/metrics/prometheus-name.js'
import { renderPrometheus } from '../../../lib/core/metrics/render-prometheus.js'

test('prometheusName :: OTel names and units as Prometheus spells them', () => {
  assert.is(prometheusName('http.server.request.duration', 's', 'histogram'), 'http_server_request_duration_seconds')
  assert.is(prometheusName('http.server.active_requests', '{request}', 'gauge'), 'http_server_active_requests')
  assert.is(prometheusName('twinport.messages.received', '{message}', 'counter'), 'twinport_messages_received_total')
  assert.is(prometheusName('twinport.send.backlog', 'By', 'gauge'), 'twinport_send_backlog_bytes')
  assert.is(prometheusName('cpu.utilization', '1', 'gauge'), 'cpu_utilization_ratio')
  assert.is(prometheusName('net.io', 'By/s', 'counter'), 'net_io_bytes_per_second_total')
  assert.is(prometheusName('jobs_total', '', 'counter'), 'jobs_total')
})

test('renderPrometheus :: counter, gauge and histogram families with HELP, TYPE and the node label', () => {
  const metrics = createMetricsRegistry({ labels: { node: 'a' } })
  metrics.counter({ name: 'app.jobs', description: 'Jobs done.', unit: '{job}', labels: ['kind'] }).labels('email').add(2)
  metrics.gauge({ name: 'app.queue', description: 'Queued.', unit: '{job}' }).labels().set(7)
  const h = metrics.histogram({ name: 'app.latency', description: 'Latency.', unit: 's', buckets: [0.1, 1] })
  const s = h.labels()
  s.observe(0.05)
  s.observe(0.1)
  s.observe(0.5)
  s.observe(3)
  assert.is(
    renderPrometheus(metrics),
    [
      '# HELP app_jobs_total Jobs done.',
      '# TYPE app_jobs_total counter',
      'app_jobs_total{node="a",kind="email"} 2',
      '# HELP app_queue Queued.',
      '# TYPE app_queue gauge',
      'app_queue{node="a"} 7',
      '# HELP app_latency_seconds Latency.',
      '# TYPE app_latency_seconds histogram',
      'app_latency_seconds_bucket{node="a",le="0.1"} 2',
      'app_latency_seconds_bucket{node="a",le="1"} 3',
      'app_latency_seconds_bucket{node="a",le="+Inf"} 4',
      'app_latency_seconds_sum{node="a"} 3.65',
      'app_latency_seconds_count{node="a"} 4',
      '',
    ].join('\n'),
  )
})

test('renderPrometheus :: label values escaped (backslash, quote, newline)', () => {
  const metrics = createMetricsRegistry()
  metrics.counter({ name: 'x', description: 'a\nb', unit: '', labels: ['v'] }).labels('q"\\\n').add()
  const text = renderPrometheus(metrics)
  assert.ok(text.includes('x_total{v="q\\"\\\\\\n"} 1'), text)
  assert.ok(text.includes('# HELP x_total a\\nb'))
})

test('MetricsRegistry :: label sets bounded: past maxSeries, one _other series', () => {
  const metrics = createMetricsRegistry()
  const c = metrics.counter({ name: 'by.id', description: 'A mistake.', unit: '', labels: ['id'], maxSeries: 2 })
  for (let i = 0; i < 10; i++) c.series(String(i)).add()
  assert.equal(
    c.all().map((s) => [s.values[0], s.value]),
    [['0', 1], ['1', 1], ['_other', 8]],
  )
})

test('MetricsRegistry :: the same name answers the same instrument; another kind is refused', () => {
  const metrics = createMetricsRegistry()
  const a = metrics.counter({ name: 'n', description: '', unit: '' })
  assert.is(metrics.counter({ name: 'n', description: '', unit: '' }), a)
  assert.throws(() => metrics.gauge({ name: 'n', description: '', unit: '' }), /is a counter/)
})

test('Gauge :: readers run at collection; a throwing reader leaves the scrape whole', () => {
  const metrics = createMetricsRegistry()
  let open = 3
  metrics.gauge({ name: 'open', description: '', unit: '', labels: ['t'] }).observe((set) => {
    set(open, 'ws')
    set(1, 'sse')
  }).observe(() => {
    throw new Error('broken')
  })
  assert.ok(renderPrometheus(metrics).includes('open{t="ws"} 3'))
  open = 5
  assert.ok(renderPrometheus(metrics).includes('open{t="ws"} 5'))
})

test('Histogram :: an observation lands in the first bucket whose bound is at least it', () => {
  const h = createMetricsRegistry().histogram({ name: 'h', description: '', unit: 's', buckets: [1, 2, 4] })
  const s = h.labels()
  for (const v of [0, 1, 1.5, 2, 3, 4, 5, Infinity]) s.observe(v)
  assert.equal([...s.counts], [2, 2, 2, 2])
  assert.throws(() => createMetricsRegistry().histogram({ name: 'bad', description: '', unit: '', buckets: [2, 1] }), /ascend/)
})

test.run()

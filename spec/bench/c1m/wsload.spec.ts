/**
 * bench/c1m's C programs, built with the system cc, against a real twinport server in this
 * process (the echo app's routes): the idle client answers pings (connections survive a
 * short heartbeat), counts a broadcast's receipts over its stdin/stdout protocol, and the
 * echo mode prints client-result.ts's RESULT line; the floor probe prints its figures.
 * Counts only, no timings. Skipped with a note when no C compiler is found.
 */
import { spawn, spawnSync } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { buildC } from '../../../bench/c1m/build-c.js'
import { startIdleClient, sumStats } from '../../../bench/c1m/idle-clients.js'
import { parseClientResult } from '../../../bench/load/client-result.js'
import { runServer, silentLogger } from '../../../lib/index.js'
import { echoOptions, echoRoutes } from '../../../examples/echo-routes.js'

const wsload = buildC('wsload')
const floor = buildC('floor')
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

const withServer = async (heartbeatIntervalMs: number, body: (port: number) => Promise<void>): Promise<void> => {
  const server = await runServer({
    host: '127.0.0.1', port: 0, routes: echoRoutes, ...echoOptions, logger: silentLogger,
    limits: { ...echoOptions.limits, heartbeatIntervalMs },
  })
  try {
    await body(server.address.port)
  } finally {
    await server.close()
  }
}

if ('error' in wsload || 'error' in floor) {
  test('wsload :: skipped, no C compiler', () => console.log(`  (skipped: ${'error' in wsload ? wsload.error : ''})`))
} else {
  const bin = wsload.path
  test('wsload idle :: 20 connections stay open through heartbeats (pongs answered) and count one broadcast each', async () => {
    await withServer(150, async (port) => {
      const client = startIdleClient(bin, port, 20, '127.31.250.1', 8, 20_000)
      for (let i = 0; i < 200 && !client.progress.ready; i++) await sleep(25)
      assert.equal([client.progress.open, client.progress.failed, client.progress.ready], [20, 0, true])
      await sleep(700) // ≥ 3 heartbeat intervals: a client that did not answer would be dropped by the second
      const before = await client.stat()
      assert.equal([before.open, before.closed], [20, 0], JSON.stringify(before))
      assert.ok(before.pings >= 40, JSON.stringify(before))
      const sent = await client.send()
      let after = before
      for (let i = 0; i < 200 && after.recv < before.recv + 20; i++) {
        await sleep(10)
        after = await client.stat()
      }
      assert.is(after.recv - before.recv, 20)
      assert.ok(after.last >= sent, `${after.last} < ${sent}`)
      assert.equal(sumStats([before, after]).open, 40)
      client.stop()
    })
  })

  test('wsload idle :: --first opens a first wave, `more` the rest; `wait` tells when a broadcast is all received', async () => {
    await withServer(30_000, async (port) => {
      const client = startIdleClient(bin, port, 20, '127.31.250.2', 8, 20_000, { first: 8 })
      try {
        for (let i = 0; i < 200 && !client.progress.ready; i++) await sleep(25)
        assert.equal([client.progress.open, client.progress.ready], [8, true])
        await sleep(100)
        assert.is((await client.stat()).open, 8)
        client.more()
        assert.is(client.progress.ready, false)
        for (let i = 0; i < 200 && !client.progress.ready; i++) await sleep(25)
        const before = await client.stat()
        assert.equal([before.open, before.failed], [20, 0])
        const sent = await client.send()
        const got = await client.waitFor(before.recv + 20, 10_000)
        assert.ok(got !== undefined && got.recv === before.recv + 20 && got.last >= sent, JSON.stringify(got))
        // Already reached: answered at once; one not reached times out and leaves no answer behind.
        assert.is((await client.waitFor(1, 10_000))?.recv, before.recv + 20)
        assert.is(await client.waitFor(before.recv + 1000, 50), undefined)
        assert.is((await client.stat()).recv, before.recv + 20)
      } finally {
        client.stop()
      }
    })
  })

  test('wsload echo :: N × K in flight round trips, the RESULT line of client-result.ts', async () => {
    await withServer(30_000, async (port) => {
      const out = await new Promise<string>((resolve) => {
        const child = spawn(bin, ['--mode', 'echo', '--port', String(port), '--conns', '4', '--inflight', '3', '--size', '40',
          '--warmup', '50', '--ms', '300', '--server-pid', String(process.pid), '--deadline', '20000'], { stdio: ['ignore', 'pipe', 'inherit'] })
        let text = ''
        child.stdout.on('data', (c: Buffer) => (text += c.toString()))
        child.on('close', () => resolve(text))
      })
      const r = parseClientResult(out)
      assert.ok(r !== undefined, out)
      assert.equal([r.mode, r.ok, r.failures], ['echo', true, 0], out)
      assert.ok(r.messages > 0 && r.latency !== undefined && r.latency.samples === r.messages, out)
      assert.ok(r.latency.p50 <= r.latency.p99 && r.latency.p99 <= r.latency.max, out)
    })
  })

  test('wsload :: refuses a source address off loopback, and a bad count, before connecting', () => {
    const off = spawnSync(bin, ['--port', '9', '--conns', '1', '--src', '10.0.0.1'], { encoding: 'utf8' })
    assert.is(off.status, 2)
    assert.ok(off.stderr.includes('--src must be a loopback address'), off.stderr)
    assert.is(spawnSync(bin, ['--port', '9', '--conns', '0'], { encoding: 'utf8' }).status, 2)
  })

  test('floor :: one FLOOR line with positive per-write and per-read costs', () => {
    const ran = spawnSync(floor.path, ['--pairs', '50', '--rounds', '3', '--bytes', '2'], { encoding: 'utf8', timeout: 30_000 })
    const line = ran.stdout.split('\n').find((l) => l.startsWith('FLOOR '))
    assert.ok(line !== undefined, ran.stdout + ran.stderr)
    const f = JSON.parse(line.slice(6)) as { pairs: number; writeUs: number; readUs: number; roundTripUs: number }
    assert.is(f.pairs, 50)
    assert.ok(f.writeUs > 0 && f.readUs > 0 && Math.abs(f.roundTripUs - f.writeUs - f.readUs) < 0.01, line)
  })
}

test.run()

import { spawnSync } from 'node:child_process'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseClientResult, type ClientResult } from '../../../bench/load/client-result.js'
import { startServer } from '../../../bench/load/start-server.js'
import { CONTENDERS, type ContenderId } from '../../../bench/peers/contenders.js'

// Integration: the real load client against the real peer servers, briefly. Counts only, no timings.
const client = (port: number, pid: number, args: readonly string[]): ClientResult | undefined => {
  const ran = spawnSync(process.execPath, ['--import', 'tsx', 'bench/load/ws-client.ts', '--port', String(port), '--server-pid', String(pid),
    '--warmup', '50', '--ms', '200', '--settle', '50', '--deadline', '20000', ...args], { encoding: 'utf8', timeout: 30_000 })
  return parseClientResult(ran.stdout)
}

test('ws-client :: echo and broadcast against the node:http + ws peer', async () => {
  const server = await startServer('bench/peers/node-http.ts')
  if (typeof server === 'string') throw new Error(server)
  try {
    const echo = client(server.port, server.pid, ['--mode', 'echo', '--conns', '4', '--inflight', '2'])
    assert.is(echo?.ok, true)
    assert.is(echo?.failures, 0)
    assert.ok((echo?.messages ?? 0) > 0)
    const bcast = client(server.port, server.pid, ['--mode', 'bcast', '--clients', '20', '--repeat', '2'])
    assert.is(bcast?.ok, true)
    assert.is(bcast?.messages, 40)
    assert.is(bcast?.broadcasts?.length, 2)
  } finally {
    await server.stop()
  }
})

test('ws-client :: rate mode against raw node:net: every message paced by the worker clock is echoed and timed', async () => {
  const server = await startServer('bench/peers/raw-net.ts')
  if (typeof server === 'string') throw new Error(server)
  try {
    // A window of 2 s (the last --ms wins): on a loaded machine 200 ms could end before the first echo came back.
    const rate = client(server.port, server.pid, ['--mode', 'rate', '--conns', '3', '--rate', '2000', '--ms', '2000'])
    assert.equal([rate?.ok, rate?.failures, rate?.mode], [true, 0, 'rate'], JSON.stringify(rate))
    const latency = rate?.latency
    assert.ok(latency !== undefined && latency.samples > 0, JSON.stringify(rate))
    assert.ok(latency.p50 > 0 && latency.p50 <= latency.p99 && latency.p99 <= latency.max, JSON.stringify(latency))
  } finally {
    await server.stop()
  }
})

test('ws-client :: rate mode refuses a rate its clock cannot pace (0, or past 200000 a second) before connecting', () => {
  for (const rate of ['0', '1e9']) {
    // Nothing listens on port 9: the refusal comes before any connection is tried.
    const ran = spawnSync(process.execPath, ['--import', 'tsx', 'bench/load/ws-client.ts', '--port', '9', '--server-pid', String(process.pid), '--mode', 'rate', '--rate', rate, '--ms', '50', '--warmup', '0'], { encoding: 'utf8', timeout: 30_000 })
    assert.is(ran.status, 1, rate)
    assert.ok(ran.stderr.includes(`--rate must be from 1 to 200000 messages a second, got ${rate}`), ran.stderr)
  }
})

test('ws-client :: socket.io dialect joins a namespace and counts broadcasts over its own protocol', async () => {
  const server = await startServer('bench/peers/socket-io.ts')
  if (typeof server === 'string') throw new Error(server)
  try {
    const bcast = client(server.port, server.pid, ['--mode', 'bcast', '--clients', '5', '--repeat', '1', '--dialect', 'socketio'])
    assert.is(bcast?.messages, 5)
  } finally {
    await server.stop()
  }
})

test('ws-client :: --offer and --json: compressed echo and broadcast against ws and twinport with DEFLATE=1, wire bytes reported', async () => {
  for (const script of ['bench/peers/node-http.ts', 'examples/echo.ts']) {
    const server = await startServer(script, undefined, [], { DEFLATE: '1' })
    if (typeof server === 'string') throw new Error(server)
    try {
      const offer = ['--offer', 'permessage-deflate; client_max_window_bits', '--json', '4096']
      const echo = client(server.port, server.pid, ['--mode', 'echo', '--conns', '3', '--inflight', '2', ...offer])
      assert.equal([echo?.ok, echo?.failures, echo?.agreed], [true, 0, 3], script)
      assert.ok((echo?.messages ?? 0) > 0)
      // 4 KiB of JSON each way, compressed to well under half.
      assert.ok((echo?.wire?.down ?? Infinity) < 2048 && (echo?.wire?.up ?? Infinity) < 2048, JSON.stringify(echo?.wire))
      const bcast = client(server.port, server.pid, ['--mode', 'bcast', '--clients', '6', '--repeat', '2', ...offer])
      assert.equal([bcast?.ok, bcast?.messages, bcast?.agreed], [true, 12, 6], script)
      assert.ok((bcast?.wire?.down ?? Infinity) < 2048)
    } finally {
      await server.stop()
    }
  }
})

test('ws-client :: --offer to a server without compression: echo refuses to run uncompressed, idle counts no agreement', async () => {
  const server = await startServer('bench/peers/node-http.ts')
  if (typeof server === 'string') throw new Error(server)
  try {
    const offer = ['--offer', 'permessage-deflate']
    const echo = client(server.port, server.pid, ['--mode', 'echo', '--conns', '2', ...offer])
    assert.is(echo?.ok, false)
    assert.match(echo?.error ?? '', /permessage-deflate was offered and not agreed/)
    const idle = client(server.port, server.pid, ['--mode', 'idle', '--clients', '4', '--base', '2', ...offer])
    assert.equal([idle?.ok, idle?.agreed], [true, 0])
  } finally {
    await server.stop()
  }
})
// The peers on Bun and Deno keep the same contract: /hello, echo, and the /bcast room (sender included).
for (const id of ['bun-serve', 'raw-bun', 'deno-serve', 'raw-deno'] as const satisfies readonly ContenderId[]) {
  test(`ws-client :: /hello, echo and broadcast against ${CONTENDERS[id].label}`, async () => {
    const { script, runtime } = CONTENDERS[id]
    const server = await startServer(script, 20_000, [], {}, runtime)
    if (typeof server === 'string') throw new Error(server)
    try {
      const hello = await fetch(`http://127.0.0.1:${server.port}/hello`)
      assert.is(hello.status, 200)
      assert.is(await hello.text(), '{"hello":"world"}')
      const echo = client(server.port, server.pid, ['--mode', 'echo', '--conns', '2', '--inflight', '2'])
      assert.is(echo?.ok, true)
      assert.is(echo?.failures, 0)
      const bcast = client(server.port, server.pid, ['--mode', 'bcast', '--clients', '10', '--repeat', '2'])
      assert.is(bcast?.messages, 20)
    } finally {
      await server.stop()
    }
  })
}

test.run()

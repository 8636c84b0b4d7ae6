/**
 * `runServer({ transport: 'native' })` on Node: the loopback exchange in this process (so
 * lib/native counts in the coverage), the addon's backpressure seen from the engine's side,
 * its small per-connection record, and the fallback to node:net with one warning when the
 * binary is missing or an option only node:net serves is given. The integration suite runs
 * against this transport too (`TWINPORT_TARGET=node-native`, spec/run-all.ts).
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { request } from 'node:http'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { echoOptions, echoRoutes } from '../../examples/echo-routes.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { loadNativeBinding } from '../../lib/native/native-binding.js'
import { runServer } from '../../lib/node/run-server.js'
import { eventually, memoryLogger } from '../support/server.js'
import { buildNative } from './build-native.js'
import { loopbackExchange } from './loopback-exchange.js'

const test = suite('runServer :: native transport')
const built = buildNative('release')
const skip = 'skip' in built ? built.skip : undefined
if (skip !== undefined) console.log(`  native transport specs skipped: ${skip}`)

test('serves the loopback exchange (HTTP, pipelining, large bodies, WebSocket, backpressure, half-close, reset)', async () => {
  if (skip !== undefined) return
  const { logger, records } = memoryLogger()
  const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', routes: echoRoutes, ...echoOptions, logger })
  try {
    await loopbackExchange(server.address.port)
  } finally {
    await server.close()
  }
  assert.equal(records.filter((r) => r.level === 'warning').map((r) => r.message), [])
  const native = loadNativeBinding()
  assert.is(native._tag, 'Right')
  if (native._tag === 'Right') await eventually(() => native.right.openCount() === 0, 2000, 'every native connection closed')
})

test('a connection costs the addon one small fixed record', () => {
  if (skip !== undefined) return
  const native = loadNativeBinding()
  if (native._tag === 'Left') return assert.unreachable(native.left)
  assert.ok(native.right.connSize <= 256, `${native.right.connSize} bytes`)
})

test('many sockets ready in one wake-up, their reads filling several slabs: every request is answered', async () => {
  if (skip !== undefined) return
  const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', logger: memoryLogger().logger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
  // 40 connections, each written a burst of 20 pipelined requests of ~450 bytes in one turn of
  // this process: the addon finds them ready together (~360 KiB, past several 64 KiB slabs).
  const padding = `x-pad: ${'p'.repeat(400)}\r\n`
  const burst = `GET /hello HTTP/1.1\r\nhost: x\r\n${padding}\r\n`.repeat(20)
  const sockets = Array.from({ length: 40 }, () => connect(server.address.port, '127.0.0.1'))
  const answered = sockets.map(() => 0)
  try {
    sockets.forEach((socket, i) => socket.on('data', (chunk: Buffer) => {
      answered[i]! += chunk.toString('latin1').split('HTTP/1.1 200').length - 1
    }))
    await Promise.all(sockets.map((socket) => new Promise((resolve) => socket.once('connect', resolve))))
    await eventually(async () => (await server.clients()).length === 40, 2000, 'every connection accepted')
    for (let round = 1; round <= 3; round++) {
      for (const socket of sockets) socket.write(burst)
      await eventually(() => answered.every((n) => n === 20 * round), 5000, `round ${round}: 20 answers on every connection`)
    }
  } finally {
    for (const socket of sockets) socket.destroy()
    await server.close()
  }
})

test('a port in use rejects with EADDRINUSE, as on node:net', async () => {
  if (skip !== undefined) return
  const first = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', logger: memoryLogger().logger })
  try {
    const error = await runServer({ host: '127.0.0.1', port: first.address.port, transport: 'native', logger: memoryLogger().logger }).then(
      () => undefined,
      (e: unknown) => e as Error & { code?: string },
    )
    assert.is(error?.code, 'EADDRINUSE')
  } finally {
    await first.close()
  }
})

test('the server closes a connection it ends once the peer ends too, and tells the engine', async () => {
  if (skip !== undefined) return
  const server = await runServer({ host: '127.0.0.1', port: 0, transport: 'native', logger: memoryLogger().logger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
  try {
    const socket = connect(server.address.port, '127.0.0.1')
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()))
    socket.on('data', () => undefined)
    socket.write('GET /hello HTTP/1.1\r\nhost: x\r\nconnection: close\r\n\r\n')
    socket.once('end', () => socket.end())
    await closed
    await eventually(async () => (await server.clients()).length === 0, 2000, 'no client left')
  } finally {
    await server.close()
  }
})

test('transport must be native or net', async () => {
  const error = await runServer({ transport: 'udp' as 'net' }).then(() => undefined, (e: unknown) => e as Error)
  assert.match(error?.message ?? '', /transport: expected 'native' or 'net', got "udp"/)
})

test('a Unix socket path is served by node:net, with one warning saying so', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-native-'))
  const path = join(dir, 'sock')
  const { logger, records } = memoryLogger()
  const server = await runServer({ path, transport: 'native', logger, routes: [httpRoute('GET', '/hello', () => ({ hello: 'world' }))] })
  try {
    const body = await new Promise<string>((resolve, reject) => {
      const req = request({ socketPath: path, path: '/hello', headers: { host: 'x' } }, (res) => {
        let text = ''
        res.on('data', (c: Buffer) => (text += c.toString()))
        res.on('end', () => resolve(text))
      })
      req.on('error', reject)
      req.end()
    })
    assert.is(body, '{"hello":"world"}')
    assert.equal(records.filter((r) => r.level === 'warning').map((r) => r.message), [
      "transport 'native' unavailable (a Unix socket path is served by node:net); serving on node:net",
    ])
  } finally {
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a missing binary: the server starts on node:net and says why in one warning, never a crash', () => {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'spec/native/fallback-child.ts'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, TWINPORT_NATIVE_BINARY: '/nonexistent/twinport.node' },
  })
  assert.is(run.status, 0, run.stderr)
  const said = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}') as { body: string; warnings: string[] }
  assert.is(said.body, '{"hello":"world"}')
  assert.equal(said.warnings, [
    "transport 'native' unavailable (no native binary at /nonexistent/twinport.node (build it with `make -C native`)); serving on node:net",
  ])
})

test.run()

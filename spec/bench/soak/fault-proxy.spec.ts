/**
 * bench/soak/fault-proxy.ts: whatever delay it injects (latency with jitter, stalls), the bytes
 * of one direction leave in the order they came, as TCP's would. Before session 13 a timer per
 * chunk reordered them, which scrambled the soak's node B ↔ Redis replies (bench/RESULTS.md
 * "Session 13: sessions after a partition"). An echo server behind the proxy; numbered tokens.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { type FaultProxy, startFaultProxy } from '../../../bench/soak/fault-proxy.js'
import { eventually } from '../../support/server.js'

const test = suite('bench/soak/fault-proxy')

const listen = (server: Server): Promise<number> =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)))
const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

// Sends `count` tokens one write each (a turn apart now and then, so chunks get different
// delays), and answers the numbers echoed back, in the order they came.
const roundTrip = async (shape: (proxy: FaultProxy, i: number) => void, count: number): Promise<number[]> => {
  const echo = createServer((s) => void s.on('error', () => undefined).pipe(s))
  let proxy: FaultProxy | undefined
  let client: Socket | undefined
  try {
    proxy = await startFaultProxy(await listen(echo))
    const socket = connect(proxy.port, '127.0.0.1').setNoDelay(true)
    client = socket
    let got = ''
    socket.on('data', (d: Buffer) => void (got += d.toString()))
    await new Promise((resolve) => socket.once('connect', resolve))
    for (let i = 0; i < count; i++) {
      shape(proxy, i)
      socket.write(`<${i}>`)
      if (i % 3 === 0) await nextTurn()
    }
    await eventually(() => (got.match(/<\d+>/g) ?? []).length === count, 10_000, 'every token back')
    return [...got.matchAll(/<(\d+)>/g)].map((m) => Number(m[1]))
  } finally {
    client?.destroy()
    await proxy?.close()
    await new Promise((resolve) => echo.close(resolve))
  }
}

const inOrder = (count: number): number[] => Array.from({ length: count }, (_, i) => i)

test('latency with jitter (50 ± 40 ms a chunk): every byte back, in order', async () => {
  assert.equal(await roundTrip((proxy, i) => i === 0 && proxy.shape(50, 40), 300), inOrder(300))
})

test('stalls: what was held leaves in order when the stall ends', async () => {
  assert.equal(await roundTrip((proxy, i) => i % 50 === 0 && proxy.stall(100), 300), inOrder(300))
})

test.run()

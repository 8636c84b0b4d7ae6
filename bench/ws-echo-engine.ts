/**
 * Benchmark (not a test): the engine's own work per echoed WebSocket message, in process,
 * without sockets or system calls. The echo example's routes (`examples/echo-routes.ts`) on
 * the engine with Node's frame writer and buffer pool (`nodePlatform`) and a fake socket
 * layer that only counts the bytes written, corked as Node corks; each connection is fed
 * chunks of `--batch` masked 32-byte text frames (as bench/load/ws-client.ts sends them,
 * 10 in flight), each chunk a fresh Buffer (as Node reads into a fresh buffer), handed over
 * as the Node adapter hands it (`receivedBytes`).
 *
 * It isolates the JavaScript the `ws-echo-10` workload spends per message in the engine
 * (decode, UTF-8, dispatch, frame out, write calls), which the end-to-end run mixes with the
 * kernel's loopback work; each figure is the median of several rounds, in ns per message of
 * this process's CPU time (robust to other load on the machine).
 *
 * Run: `npx tsx bench/ws-echo-engine.ts [--batch 10] [--conns 50] [--payload 32] [--rounds 7] [--ms 400]`,
 * or the compiled build (`node bench/.tmp/dist/bench/ws-echo-engine.js`, as the servers run).
 */
import { parseArgs } from 'node:util'
import { encodeFrameBytes } from '../lib/core/ws/encode-frame.js'
import { OPCODE } from '../lib/core/ws/frame.js'
import { receivedBytes } from '../lib/engine/connection/received-bytes.js'
import { countingEngine, upgradeRequest } from './load/counting-platform.js'
import { cpuRounds, minMedian } from './load/engine-rounds.js'

const { values: opt } = parseArgs({
  options: {
    batch: { type: 'string', default: '10' },
    conns: { type: 'string', default: '50' },
    payload: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '7' },
    ms: { type: 'string', default: '400' },
    binary: { type: 'boolean', default: false },
  },
})

const HANDSHAKE = upgradeRequest('/echo')

const batch = Number(opt.batch)
const conns = Number(opt.conns)
const size = Number(opt.payload)
const payload = new TextEncoder().encode('x'.repeat(size))
const key = Uint8Array.of(0x12, 0x34, 0x56, 0x78)
const frame = encodeFrameBytes({ opcode: opt.binary ? OPCODE.BINARY : OPCODE.TEXT, payload }, key)
const chunk = new Uint8Array(frame.length * batch)
for (let i = 0; i < batch; i++) chunk.set(frame, i * frame.length)
const serverFrame = 2 + size

const { engine, sockets, clients } = countingEngine(conns)
for (const client of clients) client.receiver.receive(HANDSHAKE.slice())
await new Promise((resolve) => setTimeout(resolve, 20))
for (const s of sockets) {
  s.bytes = 0
  s.writes = 0
  s.flushes = 0
}

// Feeds one chunk to every connection; answers the messages fed.
const feedAll = (): number => {
  for (let c = 0; c < conns; c++) {
    const copy = Buffer.allocUnsafe(chunk.length)
    copy.set(chunk)
    const client = clients[c]!
    client.receiver.receive(receivedBytes(client, copy))
  }
  return conns * batch
}

const figures = cpuRounds(feedAll, Number(opt.rounds), Number(opt.ms))
const s0 = sockets[0]!
const fed = s0.bytes / serverFrame
if (!Number.isInteger(fed) || s0.closed || s0.ended) throw new Error(`not an echo: ${s0.bytes} bytes, closed ${s0.closed}`)
console.log(
  `engine echo, ${batch} frames of ${size} B per chunk, ${conns} connections: ` +
    `${minMedian(figures, 'ns/msg')}; ` +
    `${(s0.writes / fed).toFixed(2)} writes per message, ${((s0.flushes * batch) / fed).toFixed(2)} flushes per chunk`,
)
const closing = engine.handle.close()
for (const c of clients) engine.closed(c)
await closing

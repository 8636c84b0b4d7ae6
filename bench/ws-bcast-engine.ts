/**
 * Benchmark (not a test): the engine's own work per receiver of a broadcast, in process,
 * without sockets or system calls. The echo example's routes (`examples/echo-routes.ts`) on
 * the engine with Node's frame writer and buffer pool over the counting sockets of
 * bench/load/counting-platform.ts; `--conns` clients connect to `/bcast` (one room), and one
 * of them sends a masked text frame, which the app broadcasts to the room (as the `ws-bcast`
 * workload does), then the I/O turns end until the last receiver has it (the flush batcher's
 * uncorks run; a large broadcast's slices are written).
 *
 * Beside it, the ceiling's loop in process: one prebuilt frame written to every counting
 * socket in a plain loop (bench/peers/raw-net.ts `onBroadcast`), so the difference is what
 * twinport adds per receiver in JavaScript. Figures: min and median of rounds, in ns of this
 * process's CPU per receiver.
 *
 * Run: `npx tsx bench/ws-bcast-engine.ts [--conns 10000] [--payload 32] [--rounds 7] [--ms 400]`.
 */
import { setImmediate as turn } from 'node:timers/promises'
import { parseArgs } from 'node:util'
import { encodeFrameBytes } from '../lib/core/ws/encode-frame.js'
import { OPCODE } from '../lib/core/ws/frame.js'
import { receivedBytes } from '../lib/engine/connection/received-bytes.js'
import { countingEngine, countingPlatform, type CountingSocket, upgradeRequest } from './load/counting-platform.js'
import { cpuNs, minMedian } from './load/engine-rounds.js'

const { values: opt } = parseArgs({
  options: {
    conns: { type: 'string', default: '10000' },
    payload: { type: 'string', default: '32' },
    rounds: { type: 'string', default: '7' },
    ms: { type: 'string', default: '400' },
  },
})

const HANDSHAKE = upgradeRequest('/bcast')

const conns = Number(opt.conns)
const size = Number(opt.payload)
const rounds = Number(opt.rounds)
const ms = Number(opt.ms)
const payload = new TextEncoder().encode('x'.repeat(size))
const frame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload }, Uint8Array.of(0x12, 0x34, 0x56, 0x78))
const serverFrame = encodeFrameBytes({ opcode: OPCODE.TEXT, payload })

const { engine, sockets, clients } = countingEngine(conns)
for (const client of clients) client.receiver.receive(HANDSHAKE.slice())
await turn()
for (const s of sockets) {
  s.bytes = 0
  s.writes = 0
  s.flushes = 0
}

// One broadcast through the engine: a frame from the first client, then the end of the turn,
// and more turns until the last receiver has it (a broadcast past 512 receivers goes out a
// slice per turn, lib/engine/delivery/broadcast-slices.ts).
const sender = clients[0]!
const last = sockets[conns - 1]!
const engineStep = async (): Promise<void> => {
  const want = last.bytes + serverFrame.length
  const copy = Buffer.allocUnsafe(frame.length)
  copy.set(frame)
  sender.receiver.receive(receivedBytes(sender, copy))
  do await turn()
  while (last.bytes < want)
}
// The ceiling's loop: the prebuilt frame to every socket, then the end of the turn.
const io = countingPlatform.io
const rawStep = async (): Promise<void> => {
  for (let i = 0; i < sockets.length; i++) io.write(sockets[i] as CountingSocket, serverFrame)
  await turn()
}

// ns of CPU per receiver over rounds of `ms` of CPU, after one warm-up round; sorted.
const measure = async (step: () => Promise<void>): Promise<number[]> => {
  const round = async (): Promise<number> => {
    let ops = 0
    const start = cpuNs()
    let elapsed = 0
    while (elapsed < ms * 1e6) {
      await step()
      ops += 1
      elapsed = cpuNs() - start
    }
    return elapsed / (ops * conns)
  }
  await round()
  const figures: number[] = []
  for (let r = 0; r < rounds; r++) figures.push(await round())
  return figures.sort((a, b) => a - b)
}

const engineFigures = await measure(engineStep)
const s1 = sockets[conns - 1]!
const received = s1.bytes / serverFrame.length
if (!Number.isInteger(received) || received === 0 || s1.closed || s1.ended) throw new Error(`not a broadcast: ${s1.bytes} bytes`)
const writesPer = s1.writes / received
const flushesPer = s1.flushes / received
const rawFigures = await measure(rawStep)
console.log(
  `engine broadcast to ${conns} (${size} B): ${minMedian(engineFigures, 'ns/receiver')}; ` +
    `${writesPer.toFixed(2)} writes, ${flushesPer.toFixed(2)} flushes per receiver per broadcast`,
)
console.log(`raw loop to ${conns}: ${minMedian(rawFigures, 'ns/receiver')}`)
const closing = engine.handle.close()
for (const c of clients) engine.closed(c)
await closing

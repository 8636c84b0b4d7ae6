/**
 * Downloads `/stream` from a server already running on 127.0.0.1, several times in a row, and
 * prints each run's MiB/s (and the server's CPU per GiB when its pid is given): how a server
 * warms up, or how it does once warm, for profiling one server by hand (`perf record -p`,
 * `--trace-opt`, callgrind: see bench/README.md "Streaming"). Not part of any harness.
 *
 *   node --import tsx bench/streaming/download-runs.ts <port> [runs=10] [chunks=4096] [size=65536] [pid]
 *
 * `download-runs.ts <port> 1 256` is a 16 MiB warm-up, `download-runs.ts <port> 1` one 256 MiB
 * download. Loopback only; at most 100 runs, each given up after 60 s; the body is counted and
 * checked for its framing and length (`download-client.ts`), never kept. Exit code 1 when a run
 * failed.
 */
import { CLK_TCK, processCpuTicks } from '../load/proc.js'
import { download } from './download-client.js'

const MIB = 1024 * 1024
const arg = (i: number, fallback: number, max: number): number => {
  const v = Number(process.argv[2 + i] ?? fallback)
  return Number.isInteger(v) && v > 0 ? Math.min(v, max) : fallback
}
const port = arg(0, 0, 65535)
if (port === 0) {
  console.error('usage: download-runs.ts <port> [runs=10] [chunks=4096] [size=65536] [pid]')
  process.exit(2)
}
const runs = arg(1, 10, 100)
const chunks = arg(2, 4096, 1 << 20)
const size = arg(3, 65536, 1 << 24)
const pid = arg(4, 0, 1 << 30)

let failed = false
for (let i = 0; i < runs; i++) {
  const cpu0 = pid === 0 ? undefined : processCpuTicks(pid)
  const d = await download(port, `/stream?chunks=${chunks}&size=${size}`, 60_000)
  const cpu1 = pid === 0 ? undefined : processCpuTicks(pid)
  const ok = d.complete && d.status === 200 && d.bodyBytes === chunks * size
  failed ||= !ok
  const cpu = cpu0 === undefined || cpu1 === undefined ? '' : `, server CPU ${(((cpu1 - cpu0) * 1000) / CLK_TCK / (d.bodyBytes / (1024 * MIB))).toFixed(0)} ms/GiB`
  console.log(`run ${i + 1}: ${(d.bodyBytes / MIB / (d.ms / 1000)).toFixed(0)} MiB/s (${d.bodyBytes} bytes in ${d.ms.toFixed(0)} ms${cpu})${ok ? '' : ` FAILED: ${d.error ?? `status ${d.status}, complete ${String(d.complete)}`}`}`)
}
process.exit(failed ? 1 : 0)

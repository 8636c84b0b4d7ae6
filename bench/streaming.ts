/**
 * Streaming benchmark (issue 22, "Measured"): not part of `npm run bench`; run it alone.
 *
 *   node --import tsx bench/streaming.ts                  every workload, 3 interleaved rounds (a few minutes)
 *   node --import tsx bench/streaming.ts --quick          small sizes, 1 round: a smoke test (seconds)
 *   node --import tsx bench/streaming.ts --only download --rounds 5 --contenders twinport,raw-net
 *
 * Workloads (sizes of a full run; `--quick` in brackets):
 *   download  `GET /stream?chunks=4096&size=65536`: 256 MiB [32 MiB] streamed from a generator
 *             in 64 KiB chunks on one connection, read and discarded by a raw-socket client
 *             that parses the chunked framing: MiB/s. twinport `stream()`
 *             (bench/peers/stream-twinport.ts), `node:http` + `res.write` with drain handling
 *             (stream-node-http.ts), raw `node:net` writing the same framed bytes (stream-raw-net.ts,
 *             the ceiling). Targets: twinport ≥ 0.9× raw, ≥ 1.5× node:http, RSS growth ≤ 8 MiB.
 *   upload64  64 [8] clients at once, each POSTing a multipart body (one text field, one file
 *             part of 16 MiB [2 MiB]); each server writes each file to a temporary directory its
 *             own idiomatic way (twinport `writeFileFrom`, on node:net and as `twinport-native`
 *             on the native transport; fastify + @fastify/multipart `pipeline(part.file,
 *             createWriteStream(path))`, stream-fastify.ts): time until the last answer. The
 *             files are hashed from disk after the timed window (byte-identical), then deleted.
 *             `--sink hash` instead sends them through the shared hashing sink of sessions 10–13
 *             (stream-sink.ts: sha256 + one awaited write per chunk), as those figures were taken.
 *             Targets: twinport ≥ 1.5× faster, RSS growth ≤ 32 MiB.
 *   upload1g  one 1 GiB [64 MiB] upload the same way, the file checked from disk after the run,
 *             then deleted. Target: twinport RSS growth ≤ 16 MiB.
 *   parse1g   the same 1 GiB [64 MiB] upload with `?sink=count`: the file's bytes are counted,
 *             not hashed or written, so the server CPU per GiB is the upload path's alone
 *             (socket reads, body framing, the multipart parser). No target; the share of the
 *             sink is upload1g's CPU minus this.
 *
 * Warm-up, the same for every contender on each fresh server: downloads, `--warm-runs` [2]
 * full-size downloads (default 4), the first of which is reported apart as the cold run;
 * uploads, four uploads of one client's file size, one after the other. Then a full GC
 * (every peer runs with `--expose-gc` and collects on SIGUSR2, bench/peers/gc-on-signal.ts)
 * and a wait until the server's RSS holds still (streaming/settle-rss.ts), then the measured
 * run. Every answer is checked (body length and framing; each file's size and sha256 and the
 * text field), and a run that fails is reported with its reason, not measured. Server RSS
 * growth is the peak during the run (kernel high-water mark reset at the start, and sampled)
 * minus that settled RSS. Servers are started pinned to CPU 0
 * (load/start-server.ts, 127.0.0.1, a free port), this process and its clients run on CPU 1.
 * Client bodies are streamed from a generator (views of one 64 KiB pattern), never held.
 * Every wait is bounded; the temporary directory is removed at exit. The Markdown section is
 * printed and written to `bench/.tmp/streaming-results.md` (`--out` to change).
 */
import { spawnSync } from 'node:child_process'
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CLK_TCK, processCpuTicks } from './load/proc.js'
import { waitForQuiet } from './load/quiet.js'
import { LIVE, type RunningServer, startServer } from './load/start-server.js'
import { pinSelf } from './load/own-cpu.js'
import { download } from './streaming/download-client.js'
import { patternSha256 } from './streaming/multipart-body.js'
import { renderStreaming, type StreamRun, type StreamWorkload } from './streaming/render-streaming.js'
import { startRssMeter } from './streaming/rss-meter.js'
import { settleRss } from './streaming/settle-rss.js'
import type { SinkMode } from './peers/stream-sink.js'
import { upload, type Upload } from './streaming/upload-client.js'

const { values: opt } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    rounds: { type: 'string' },
    only: { type: 'string', default: 'download,upload64,upload1g,parse1g' },
    contenders: { type: 'string' },
    'warm-runs': { type: 'string' },
    sink: { type: 'string', default: 'disk' },
    source: { type: 'boolean', default: false },
    out: { type: 'string', default: 'bench/.tmp/streaming-results.md' },
  },
})

const QUICK = opt.quick === true
const ROUNDS = Math.max(1, Math.min(20, Number(opt.rounds ?? (QUICK ? 1 : 3)) || 1))
const KIB = 1024
const MIB = 1024 * KIB
const SIZES = QUICK
  ? { chunks: 512, chunk: 64 * KIB, clients: 8, clientFile: 2 * MIB, big: 64 * MIB }
  : { chunks: 4096, chunk: 64 * KIB, clients: 64, clientFile: 16 * MIB, big: 1024 * MIB }
const WARM_RUNS = Math.max(1, Math.min(10, Number(opt['warm-runs'] ?? (QUICK ? 2 : 4)) || 1))
const DOWNLOAD_TIMEOUT_MS = 60_000
const UPLOAD_TIMEOUT_MS = 180_000
const BIG_TIMEOUT_MS = 300_000

const WORKLOADS: Record<StreamWorkload, readonly string[]> = {
  download: ['twinport', 'raw-net', 'node-http'],
  upload64: ['twinport', 'twinport-native', 'fastify'],
  upload1g: ['twinport', 'twinport-native', 'fastify'],
  parse1g: ['twinport', 'twinport-native', 'fastify'],
}
const SCRIPTS: Record<string, string> = {
  twinport: 'stream-twinport',
  'twinport-native': 'stream-twinport',
  'raw-net': 'stream-raw-net',
  'node-http': 'stream-node-http',
  fastify: 'stream-fastify',
}
// What a contender's server needs in its environment beyond UPLOAD_DIR.
// The compiled server looks for the addon beside bench/.tmp/dist: name the worktree's build (make -C native).
const NATIVE_BINARY = process.env['TWINPORT_NATIVE_BINARY'] ?? resolve(`native/build/twinport-${process.platform}-${process.arch}.node`)
const ENV: Record<string, Record<string, string>> = { 'twinport-native': { TWINPORT_TRANSPORT: 'native', TWINPORT_NATIVE_BINARY: NATIVE_BINARY } }
// `disk` (each server's own way, the default since Session 14) or `hash` (the shared sink before).
const HASH_SINK = opt.sink === 'hash'
const only = new Set((opt.only ?? '').split(',').filter((w): w is StreamWorkload => w in WORKLOADS))
const picked = opt.contenders === undefined ? undefined : new Set(opt.contenders.split(','))
const log = (line: string): void => console.error(`[streaming] ${line}`)

// ---- setup: CPU, temporary directory, build ------------------------------------------------

const pinnedSelf = pinSelf(1)
const DIR = mkdtempSync(join(tmpdir(), 'twinport-stream-bench-'))
const cleanUp = (): void => {
  for (const child of LIVE) child.kill('SIGKILL')
  rmSync(DIR, { recursive: true, force: true })
}
process.on('exit', cleanUp)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))
const emptyDir = (): void => {
  for (const name of readdirSync(DIR)) rmSync(join(DIR, name), { force: true })
}

// The servers run compiled, as bench/run.ts runs twinport (an application ships JavaScript);
// --source, or a failed build, runs them all from source under tsx.
const built =
  opt.source !== true &&
  (log('compiling (tsc -p tsconfig.bench.json)…'),
  spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.bench.json'], { stdio: 'ignore', timeout: 180_000 }).status === 0)
if (opt.source !== true && !built) log('the build failed: every server runs from source under tsx')
const scriptOf = (contender: string): string =>
  built ? `bench/.tmp/dist/bench/peers/${SCRIPTS[contender]}.js` : `bench/peers/${SCRIPTS[contender]}.ts`

// The machine's load when the section is written: other engineers share the 2 cores.
const loadAtStart = loadavg().map((l) => l.toFixed(1)).join(' / ')
const loadAverage = (): string => `load average (1 / 5 / 15 min) ${loadAtStart} at the start, ${loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end`

// ---- one run ---------------------------------------------------------------------------------

const PATTERN = randomBytes(64 * KIB)
const hashes = new Map<number, string>()
const expectedSha = (size: number): string => {
  let h = hashes.get(size)
  if (h === undefined) hashes.set(size, (h = patternSha256(PATTERN, size)))
  return h
}
const boundary = (): string => `----twinport-bench-${randomBytes(12).toString('hex')}`

interface Measured {
  readonly ok: boolean
  readonly error?: string
  readonly ms: number
  readonly bytes: number
}

interface UploadAnswer {
  readonly fields?: Record<string, unknown>
  readonly files?: readonly { readonly field?: unknown; readonly filename?: unknown; readonly size?: unknown; readonly sha256?: unknown; readonly path?: unknown }[]
}

// What is wrong with an upload's answer, or undefined when it is right.
const checkUpload = (u: Upload, client: string, size: number, mode: SinkMode): string | undefined => {
  if (u.status !== 200) return `status ${u.status}${u.error === undefined ? '' : ` (${u.error})`}: ${u.body.slice(0, 200)}`
  let answer: UploadAnswer
  try {
    answer = JSON.parse(u.body) as UploadAnswer
  } catch {
    return `not JSON: ${u.body.slice(0, 200)}`
  }
  const file = answer.files?.[0]
  if (answer.fields?.['client'] !== client) return `field client: expected ${client}, got ${JSON.stringify(answer.fields?.['client'])}`
  if (answer.files?.length !== 1 || file === undefined) return `expected one file, got ${JSON.stringify(answer.files)}`
  if (file.field !== 'file' || file.filename !== `client-${client}.bin`) return `file part named ${JSON.stringify(file.field)} / ${JSON.stringify(file.filename)}`
  if (file.size !== size) return `file size: expected ${size}, got ${JSON.stringify(file.size)}`
  if (mode !== 'count' && mode !== 'disk' && file.sha256 !== expectedSha(size)) return 'sha256 differs from the bytes sent'
  return undefined
}

const hashFile = (path: string): Promise<string> =>
  new Promise((done, fail) => {
    const hash = createHash('sha256')
    createReadStream(path)
      .on('data', (c) => hash.update(c))
      .once('end', () => done(hash.digest('hex')))
      .once('error', fail)
  })

const downloadOnce = async (port: number, chunks: number): Promise<Measured> => {
  const d = await download(port, `/stream?chunks=${chunks}&size=${SIZES.chunk}`, DOWNLOAD_TIMEOUT_MS)
  const expected = chunks * SIZES.chunk
  const error =
    d.error !== undefined ? `${d.error} (status ${d.status}, ${d.bodyBytes} body bytes)`
    : d.status !== 200 ? `status ${d.status}`
    : !d.complete ? 'body not complete'
    : d.bodyBytes !== expected ? `body of ${d.bodyBytes} bytes (${d.contentType || 'no content type'}), expected ${expected}`
    : undefined
  return { ok: error === undefined, ms: d.ms, bytes: d.bodyBytes, ...(error === undefined ? {} : { error }) }
}

const TARGETS: Record<SinkMode, string> = { disk: '/upload', delete: '/upload?sink=hash', keep: '/upload?sink=hash&keep=1', count: '/upload?sink=count' }

const uploadMany = async (port: number, clients: number, size: number, mode: SinkMode): Promise<Measured> => {
  // Kept files (and every file written the server's own way) are checked from disk after the timed window.
  const keep = mode === 'keep' || mode === 'disk'
  const timeoutMs = clients === 1 && size > 256 * MIB ? BIG_TIMEOUT_MS : UPLOAD_TIMEOUT_MS
  const t0 = performance.now()
  const answers = await Promise.all(
    Array.from({ length: clients }, (_, i) =>
      upload({ port, target: TARGETS[mode], boundary: boundary(), client: String(i), size, pattern: PATTERN, timeoutMs }),
    ),
  )
  const ms = performance.now() - t0
  const problems = answers.map((u, i) => checkUpload(u, String(i), size, mode)).filter((p): p is string => p !== undefined)
  if (problems.length > 0) return { ok: false, ms, bytes: clients * size, error: `${problems.length} of ${clients} uploads wrong; first: ${problems[0]}` }
  if (keep) {
    // The file as written to disk is byte-identical to what was sent.
    for (const u of answers) {
      const path = (JSON.parse(u.body) as UploadAnswer).files?.[0]?.path
      if (typeof path !== 'string' || dirname(resolve(path)) !== resolve(DIR)) return { ok: false, ms, bytes: clients * size, error: `kept file not in the upload directory: ${JSON.stringify(path)}` }
      const onDisk = await hashFile(path)
      rmSync(path, { force: true })
      if (onDisk !== expectedSha(size)) return { ok: false, ms, bytes: clients * size, error: 'the file on disk differs from the bytes sent' }
    }
  }
  return { ok: true, ms, bytes: clients * size }
}

const measure = async (workload: StreamWorkload, server: RunningServer): Promise<Measured> => {
  switch (workload) {
    case 'download':
      return downloadOnce(server.port, SIZES.chunks)
    case 'upload64':
      return uploadMany(server.port, SIZES.clients, SIZES.clientFile, HASH_SINK ? 'delete' : 'disk')
    case 'upload1g':
      return uploadMany(server.port, 1, SIZES.big, HASH_SINK ? 'keep' : 'disk')
    case 'parse1g':
      return uploadMany(server.port, 1, SIZES.big, 'count')
  }
}

/** What the warm-up did: the cold first download (downloads only), or why it failed. */
interface Warm {
  readonly error?: string
  readonly coldMs?: number
}

// The same warm-up for every contender, long enough for the JIT to have compiled the
// per-chunk path (Session 10's profile: one 16 MiB download left it interpreted): WARM_RUNS
// full-size downloads, the first one kept as the cold figure; or four uploads of one client's
// file, one after the other.
const warmUp = async (workload: StreamWorkload, server: RunningServer): Promise<Warm> => {
  if (workload === 'download') {
    const seen: string[] = []
    let coldMs: number | undefined
    for (let i = 0; i < WARM_RUNS; i++) {
      const m = await downloadOnce(server.port, SIZES.chunks)
      if (!m.ok) return { error: `warm-up download ${i + 1}: ${m.error ?? 'failed'}` }
      coldMs ??= m.ms
      seen.push((m.bytes / MIB / (m.ms / 1000)).toFixed(0))
    }
    log(`  warm-up MiB/s: ${seen.join(', ')}`)
    return coldMs === undefined ? {} : { coldMs }
  }
  for (let i = 0; i < 4; i++) {
    const m = await uploadMany(server.port, 1, SIZES.clientFile, workload === 'parse1g' ? 'count' : HASH_SINK ? 'delete' : 'disk')
    if (!m.ok) return { error: `warm-up upload ${i + 1}: ${m.error ?? 'failed'}` }
  }
  return {}
}

const runOne = async (workload: StreamWorkload, contender: string, round: number): Promise<StreamRun> => {
  const base = { workload, contender, round }
  const failed = (error: string): StreamRun => ({ ...base, ok: false, error, ms: Number.NaN, bytes: 0, rssGrowth: Number.NaN, serverCpuMs: Number.NaN, quiet: true, settled: false })
  // --expose-gc for every contender: the settled baseline below asks each for a full GC.
  const server = await startServer(scriptOf(contender), 20_000, ['--expose-gc'], { UPLOAD_DIR: DIR, ...ENV[contender] })
  if (typeof server === 'string') return failed(`server did not start: ${server}`)
  try {
    const warm = await warmUp(workload, server)
    if (warm.error !== undefined) return failed(`warm-up: ${warm.error}`)
    const { settled } = await settleRss(server.pid, true)
    const { quiet } = await waitForQuiet(3000, 0.3)
    const cpu0 = processCpuTicks(server.pid) ?? Number.NaN
    const meter = startRssMeter(server.pid)
    const m = await measure(workload, server)
    const rss = meter.stop()
    const cpu1 = processCpuTicks(server.pid) ?? Number.NaN
    return { ...base, ...m, rssGrowth: rss.growth, serverCpuMs: ((cpu1 - cpu0) * 1000) / CLK_TCK, quiet, settled, ...(warm.coldMs === undefined ? {} : { coldMs: warm.coldMs }) }
  } finally {
    await server.stop()
    emptyDir()
  }
}

// ---- the rounds ------------------------------------------------------------------------------

if (!pinnedSelf) log('taskset not found: servers and clients share the CPUs')
const runs: StreamRun[] = []
const deadline = Date.now() + 30 * 60_000
for (let round = 1; round <= ROUNDS && Date.now() < deadline; round++) {
  for (const workload of Object.keys(WORKLOADS) as StreamWorkload[]) {
    if (!only.has(workload)) continue
    const list = WORKLOADS[workload].filter((c) => picked === undefined || picked.has(c))
    // Rotated each round, so no contender always goes first.
    const order = list.map((_, i) => list[(i + round - 1) % list.length] as string)
    for (const contender of order) {
      const run = await runOne(workload, contender, round)
      runs.push(run)
      log(`round ${round} ${workload} ${contender}: ${run.ok ? `${(run.ms / 1000).toFixed(2)} s, ${(run.bytes / MIB / (run.ms / 1000)).toFixed(0)} MiB/s, RSS +${(run.rssGrowth / MIB).toFixed(1)} MiB, CPU ${((run.serverCpuMs * 1024 * MIB) / run.bytes).toFixed(0)} ms/GiB${run.quiet ? '' : ' (busy machine)'}` : `FAILED: ${run.error}`}`)
    }
  }
}

const argv = process.argv.slice(2).join(' ')
const section = renderStreaming(runs, {
  command: `node --import tsx bench/streaming.ts${argv === '' ? '' : ` ${argv}`}`,
  date: new Date().toISOString().slice(0, 10),
  machine: `${cpus().length} × ${cpus()[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}`,
  sizes: `Sizes: download ${(SIZES.chunks * SIZES.chunk) / MIB} MiB in ${SIZES.chunk / KIB} KiB chunks, after ${WARM_RUNS} warm-up download(s) of that size on the same server (the first is the cold run); ${SIZES.clients} concurrent uploads of ${SIZES.clientFile / MIB} MiB; one upload of ${SIZES.big / MIB} MiB (uploads after four warm-up uploads of ${SIZES.clientFile / MIB} MiB). RSS growth from a settled baseline (full GC, RSS still).`,
  load: loadAverage(),
  rounds: ROUNDS,
  compiled: built,
  notes: [
    HASH_SINK
      ? 'Uploads through the shared hashing sink of sessions 10–13 (`--sink hash`: bench/peers/stream-sink.ts, sha256 + one awaited write per chunk, for every server).'
      : 'Uploads to disk each server\'s own way: twinport `readMultipart` + `writeFileFrom` (node:net, and `twinport-native` on the native transport), fastify `pipeline(part.file, createWriteStream(path))`; files hashed from disk after the timed window.',
  ],
})
mkdirSync(dirname(opt.out ?? 'bench/.tmp/streaming-results.md'), { recursive: true })
writeFileSync(opt.out ?? 'bench/.tmp/streaming-results.md', section)
console.log(section)
process.exit(runs.some((r) => !r.ok) ? 1 : 0)

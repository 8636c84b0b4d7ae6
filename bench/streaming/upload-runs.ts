/**
 * Uploads to `/upload` of a server already running on 127.0.0.1 (`bench/peers/stream-twinport.ts`
 * or `stream-fastify.ts`, started by hand): one warm-up upload of the same size, then
 * `clients` uploads at once, printing the time, the statuses and, with the server's pid, its
 * RSS growth and CPU per GiB. With `--gc` (only for a peer started with `node --expose-gc`, which
 * collects on SIGUSR2: bench/peers/gc-on-signal.ts) the RSS baseline is taken after a full GC
 * and once the RSS holds still, as `bench/streaming.ts` does; without it, the baseline is
 * wherever GC left the heap after the warm-up. `--count` asks the server to count the file's
 * bytes only (`?sink=count`: no hash, no file), to see the upload path's CPU alone. `--raw` posts
 * the same bodies to `/upload-raw` (twinport's peer only: the body stream without the multipart
 * parser). By default (since Session 14) each server writes the files to disk its own way and
 * keeps them; after the timed window each is hashed from disk, compared with the bytes sent,
 * and deleted. `--hash` sends them through the shared hashing sink of sessions 10–13 instead
 * (`?sink=hash`), as those figures were taken.
 *
 *   node --import tsx bench/streaming/upload-runs.ts <port> <clients> <MiB each> [pid] [--gc] [--count] [--raw] [--hash]
 *
 * Loopback only; at most 256 clients of 4 GiB; each upload given up after 600 s. The file is
 * views of one random 64 KiB pattern (`upload-client.ts`), never held. Exit code 1 when an
 * upload was not answered 200.
 */
import { createHash, randomBytes } from 'node:crypto'
import { createReadStream, rmSync } from 'node:fs'
import { CLK_TCK, processCpuTicks } from '../load/proc.js'
import { startRssMeter } from './rss-meter.js'
import { settleRss } from './settle-rss.js'
import { patternSha256 } from './multipart-body.js'
import { type Upload, upload } from './upload-client.js'

const MIB = 1024 * 1024
const flags = new Set(process.argv.slice(2).filter((a) => a.startsWith('--')))
const [port = 0, clients = 0, mib = 0, pid = 0] = process.argv.slice(2).filter((a) => !a.startsWith('--')).map(Number)
if (!(port > 0 && port < 65536 && clients >= 1 && clients <= 256 && mib >= 1 && mib <= 4096)) {
  console.error('usage: upload-runs.ts <port> <clients 1..256> <MiB each 1..4096> [pid] [--gc] [--count] [--raw]')
  process.exit(2)
}
const query = flags.has('--count') ? '?sink=count' : flags.has('--hash') ? '?sink=hash' : ''
const target = `${flags.has('--raw') ? '/upload-raw' : '/upload'}${query}`
const PATTERN = randomBytes(65536)
const one = (i: number): ReturnType<typeof upload> =>
  upload({ port, target, boundary: `----twinport-runs-${randomBytes(8).toString('hex')}`, client: String(i), size: mib * MIB, pattern: PATTERN, timeoutMs: 600_000 })

const hashFile = (path: string): Promise<string> =>
  new Promise((done, fail) => {
    const hash = createHash('sha256')
    createReadStream(path).on('data', (c) => hash.update(c)).once('end', () => done(hash.digest('hex'))).once('error', fail)
  })

// Files the server kept (answered with their path): each hashed from disk against the bytes
// sent, then deleted. Answers how many differ.
const checkKept = async (answers: readonly Upload[]): Promise<number> => {
  const expected = patternSha256(PATTERN, mib * MIB)
  let wrong = 0
  for (const a of answers) {
    let files: readonly { readonly path?: unknown; readonly size?: unknown }[] = []
    try {
      files = (JSON.parse(a.body) as { files?: typeof files }).files ?? []
    } catch {
      // counted below by its status
    }
    for (const f of files) {
      if (typeof f.path !== 'string') continue
      if (f.size !== mib * MIB || (await hashFile(f.path)) !== expected) wrong += 1
      rmSync(f.path, { force: true })
    }
  }
  return wrong
}

const warm = await one(clients)
if (warm.status !== 200) console.error(`warm-up upload: status ${warm.status} ${warm.error ?? ''}`)
await checkKept([warm])
const settled = pid > 0 && flags.has('--gc') ? await settleRss(pid, true) : undefined
const meter = pid > 0 ? startRssMeter(pid) : undefined
const cpu0 = pid > 0 ? processCpuTicks(pid) : undefined
const t0 = performance.now()
const answers = await Promise.all(Array.from({ length: clients }, (_, i) => one(i)))
const ms = performance.now() - t0
const cpu1 = pid > 0 ? processCpuTicks(pid) : undefined
const rss = meter?.stop()
const statuses = [...new Set(answers.map((a) => a.status))].join(',')
const cpu = cpu0 === undefined || cpu1 === undefined ? '' : `, server CPU ${(((cpu1 - cpu0) * 1000) / CLK_TCK / ((clients * mib) / 1024)).toFixed(0)} ms/GiB`
const growth = rss === undefined ? '' : `, RSS +${(rss.growth / MIB).toFixed(1)} MiB (from ${(rss.before / MIB).toFixed(0)} MiB${settled === undefined ? '' : settled.settled ? ', settled after GC' : ', not settled'}, peak ${(rss.peak / MIB).toFixed(0)} MiB)`
const wrong = await checkKept(answers)
const how = flags.has('--count') ? ' (counted only)' : flags.has('--hash') ? ' (hashing sink)' : ' (to disk)'
console.log(`${clients} x ${mib} MiB${how}: ${ms.toFixed(0)} ms, statuses ${statuses}${cpu}${growth}${wrong > 0 ? `, ${wrong} file(s) differ on disk` : ''}`)
process.exit(answers.every((a) => a.status === 200) && wrong === 0 ? 0 : 1)

/**
 * Benchmark (not a test): MB per CPU second of `decodeMultipart` beside busboy (the parser behind
 * @fastify/multipart and multer), fed the same 16 MiB `multipart/form-data` bodies in the same
 * 64 KiB chunks in the same run. Bodies: one field and one 16 MiB file, the file's bytes
 * random, or text lines (a CRLF every ~60 bytes, the scanner's worst ordinary case), or all
 * CR LF and dashes (a look-alike every few bytes). Each round parses every body with both
 * parsers, consuming the file data (summed, so no work is skipped), after a warm-up round;
 * medians of the rounds.
 * Run: `npx tsx bench/multipart-codec.ts` (`--quick` for fewer rounds).
 */
import busboy from 'busboy'
import { decodeMultipart } from '../lib/core/http/multipart/decode-multipart.js'
import { startMultipart } from '../lib/core/http/multipart/start-multipart.js'

const MIB = 1024 * 1024
const SIZE = 16 * MIB
const CHUNK = 64 * 1024
const BOUNDARY = '----WebKitFormBoundary7MA4YWxkTrZu0gW'
const quick = process.argv.includes('--quick')
const ROUNDS = quick ? 3 : 9

const enc = (s: string): Uint8Array => new TextEncoder().encode(s)

// A deterministic pseudo-random byte source (xorshift32).
const randomBytes = (n: number): Uint8Array => {
  const out = new Uint8Array(n)
  let x = 0x9e3779b9
  for (let i = 0; i < n; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

const textBytes = (n: number): Uint8Array => {
  const line = enc('the quick brown fox jumps over the lazy dog, 0123456789 --\r\n')
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = line[i % line.length] as number
  return out
}

const dashBytes = (n: number): Uint8Array => {
  const pattern = enc('\r\n--\r\n-')
  const out = new Uint8Array(n)
  for (let i = 0; i < n; i++) out[i] = pattern[i % pattern.length] as number
  return out
}

const bodyOf = (file: Uint8Array): Uint8Array => {
  const head = enc(
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="title"\r\n\r\nHoliday\r\n` +
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="upload"; filename="big.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  )
  const tail = enc(`\r\n--${BOUNDARY}--\r\n`)
  const out = new Uint8Array(head.length + file.length + tail.length)
  out.set(head, 0)
  out.set(file, head.length)
  out.set(tail, head.length + file.length)
  return out
}

const chunksOf = (body: Uint8Array): Uint8Array[] => {
  const out: Uint8Array[] = []
  for (let i = 0; i < body.length; i += CHUNK) out.push(body.subarray(i, i + CHUNK))
  return out
}

/** Data bytes read by twinport's parser. */
const twinport = (chunks: readonly Uint8Array[]): number => {
  const start = startMultipart(BOUNDARY)
  if (start._tag === 'Left') throw new Error('bad boundary')
  let state = start.right
  let bytes = 0
  for (const chunk of chunks) {
    let input = chunk
    for (;;) {
      const r = decodeMultipart(state, input)
      if (r._tag === 'Left') throw new Error(r.left.message)
      state = r.right.state
      if (r.right._tag === 'NeedMore') break
      const event = r.right.value
      if (event._tag === 'PartData') bytes += event.data.length
      input = r.right.rest
    }
  }
  if (state.phase !== 'Done') throw new Error('truncated')
  return bytes
}

/** Data bytes read by busboy. */
const withBusboy = (chunks: readonly Uint8Array[]): Promise<number> =>
  new Promise((resolve, reject) => {
    let bytes = 0
    const bb = busboy({ headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } })
    bb.on('field', (_name, value) => {
      bytes += value.length
    })
    bb.on('file', (_name, stream) => {
      stream.on('data', (d: Buffer) => {
        bytes += d.length
      })
    })
    bb.on('close', () => resolve(bytes))
    bb.on('error', reject)
    for (const c of chunks) bb.write(Buffer.from(c.buffer, c.byteOffset, c.length))
    bb.end()
  })

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? (s[mid] as number) : ((s[mid - 1] as number) + (s[mid] as number)) / 2
}

const mbps = (bytes: number, ms: number): number => bytes / MIB / (ms / 1000)

// CPU milliseconds since `from` (process.cpuUsage: steadier than wall time on a shared
// machine, since time the process spends descheduled is not counted).
const cpuMs = (from: NodeJS.CpuUsage): number => {
  const used = process.cpuUsage(from)
  return (used.user + used.system) / 1000
}

const main = async (): Promise<void> => {
  const bodies: readonly (readonly [string, Uint8Array])[] = [
    ['random bytes', bodyOf(randomBytes(SIZE))],
    ['text lines (CRLF every 60 B)', bodyOf(textBytes(SIZE))],
    ['CR LF and dashes only', bodyOf(dashBytes(SIZE))],
  ]
  console.log(`multipart/form-data, one 16 MiB file fed in 64 KiB chunks, ${ROUNDS} rounds, MB per CPU second (median)\n`)
  console.log('body                              twinport     busboy   ratio')
  for (const [name, body] of bodies) {
    const chunks = chunksOf(body)
    const ours: number[] = []
    const theirs: number[] = []
    // One round each to warm up, not counted.
    twinport(chunks)
    await withBusboy(chunks)
    for (let round = 0; round < ROUNDS; round++) {
      let t = process.cpuUsage()
      const a = twinport(chunks)
      ours.push(mbps(body.length, cpuMs(t)))
      t = process.cpuUsage()
      const b = await withBusboy(chunks)
      theirs.push(mbps(body.length, cpuMs(t)))
      if (a !== b) throw new Error(`the parsers disagree: ${a} vs ${b} bytes`)
    }
    const [x, y] = [median(ours), median(theirs)]
    console.log(`${name.padEnd(32)} ${x.toFixed(0).padStart(9)} ${y.toFixed(0).padStart(10)} ${(x / y).toFixed(2).padStart(6)}x`)
  }
}

await main()

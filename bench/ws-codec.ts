/**
 * Benchmark (not a test): WebSocket frame decoding and encoding in the pure core beside
 * `ws`'s own `Receiver` and `Sender`, in the same run, for binary payloads of 16 B, 1 KiB,
 * 64 KiB and 1 MiB, masked (as a client sends).
 *
 * - decode: one masked frame in, one message out. twinport: `decodeFrame` then
 *   `assembleMessage`. For 16 B also `decode, small-frame path`: `unmaskSmallFrame`, the
 *   path a server session takes for whole frames of at most 125 bytes (unmasked into the
 *   output array of the chunk, which is the caller's: here one array reused). ws: `Receiver#_write` (its parser, message assembly and event, without
 *   the Writable stream around it), `allowSynchronousEvents`. ws unmasks the input in place;
 *   the core never mutates its input, so it copies while unmasking.
 * - encode: one masked frame out. twinport: `encodeFrameBytes` (one array). ws:
 *   `Sender.frame` with `readOnly: true`, as `ws.send(buffer)` calls it (one merged buffer).
 * - encode, unmasked (what a server sends): `encodeFrame` (header + the payload, not copied)
 *   beside `Sender.frame`.
 *
 * ws is measured twice: as installed (native masking from `bufferutil` when present) and with
 * `WS_NO_BUFFER_UTIL=1` (its JavaScript masking), a second copy of its modules loaded so.
 * Contenders alternate over several rounds; each figure is the median round, in operations
 * per second of this process's CPU time (robust to other load on the machine).
 *
 * The `mask` column says how twinport masked (WebAssembly SIMD or JavaScript, see
 * lib/core/ws/mask.ts); `copy floor` is what allocating and filling a fresh array of the
 * payload's size alone allows (ops/s): the core never mutates its input, so no masked decode
 * or encode can beat it, whatever the masking costs.
 *
 * Run: `npx tsx bench/ws-codec.ts` (`--quick` for short rounds; `--no-simd` to mask in
 * JavaScript only, as before the SIMD path). `run()` answers the rows.
 */
import { createRequire } from 'node:module'
import * as E from 'fp-ts/lib/Either.js'
import { assembleMessage, initialAssembly } from '../lib/core/ws/assemble-message.js'
import { decodeFrame } from '../lib/core/ws/decode-frame.js'
import { encodeFrame, encodeFrameBytes } from '../lib/core/ws/encode-frame.js'
import { type FrameLimits, OPCODE } from '../lib/core/ws/frame.js'
import { createMasker, SIMD_COPY_ABOVE } from '../lib/core/ws/mask.js'
import { NOT_SMALL, SMALL_MAX, unmaskSmallFrame } from '../lib/core/ws/unmask-small-frame.js'

/** One measured case: operations per second for each contender, and twinport's ratios. */
export interface BenchRow {
  readonly case: string
  readonly size: string
  readonly twinport: number
  readonly ws: number
  /** twinport / ws as installed (the target: at least 1.0). */
  readonly ratio: number
  readonly wsPureJs: number
  readonly ratioPureJs: number
  /** How twinport masked: `simd`, `js`, or `-` for an unmasked case. */
  readonly mask: string
  /** Ops/s of allocating and filling a payload-sized array alone (masked cases only). */
  readonly copyFloor?: number
}

interface WsReceiver {
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): void
  _write(chunk: Uint8Array, encoding: unknown, cb: (err?: Error | null) => void): void
}
interface WsModule {
  readonly Receiver: new (options: Record<string, unknown>) => WsReceiver
  readonly Sender: { frame(data: Uint8Array, options: Record<string, unknown>): readonly Uint8Array[] }
  readonly usesNativeMask: boolean
}

// Loads ws's modules afresh, with or without bufferutil.
const loadWs = (pureJs: boolean): WsModule => {
  const require = createRequire(import.meta.url)
  for (const key of Object.keys(require.cache)) if (/[\\/]node_modules[\\/]ws[\\/]/.test(key)) delete require.cache[key]
  const before = process.env['WS_NO_BUFFER_UTIL']
  if (pureJs) process.env['WS_NO_BUFFER_UTIL'] = '1'
  else delete process.env['WS_NO_BUFFER_UTIL']
  try {
    const ws = require('ws') as { Receiver: WsModule['Receiver']; Sender: WsModule['Sender'] }
    const bufferUtil = require('ws/lib/buffer-util.js' as string) as { mask: { toString(): string } }
    return { Receiver: ws.Receiver, Sender: ws.Sender, usesNativeMask: !bufferUtil.mask.toString().includes('output[offset + i]') }
  } catch {
    // The subpath is not exported by every ws version; the Receiver and Sender still are.
    const ws = require('ws') as { Receiver: WsModule['Receiver']; Sender: WsModule['Sender'] }
    return { Receiver: ws.Receiver, Sender: ws.Sender, usesNativeMask: !pureJs }
  } finally {
    if (before === undefined) delete process.env['WS_NO_BUFFER_UTIL']
    else process.env['WS_NO_BUFFER_UTIL'] = before
  }
}

const SIZES: readonly (readonly [string, number])[] = [
  ['16 B', 16],
  ['1 KiB', 1024],
  ['64 KiB', 64 * 1024],
  ['1 MiB', 1024 * 1024],
]
const KEY = Uint8Array.of(0x37, 0xfa, 0x21, 0x3d)
const LIMITS: FrameLimits = { maxPayload: 4 << 20, requireMask: true }
const MESSAGE_LIMITS = { maxMessage: 4 << 20 }

const payloadOf = (size: number): Uint8Array => Uint8Array.from({ length: size }, (_, i) => (i * 2654435761) >>> 24)

// This process's CPU time in ms: unlike the wall clock, it does not count time the machine gave
// to other processes, so figures hold on a busy machine (GC threads are counted, as they should).
const cpuMs = (): number => {
  const u = process.cpuUsage()
  return (u.user + u.system) / 1000
}

// Calls `once` in batches for about `ms` of CPU time and answers calls per CPU second.
const measure = (once: () => void, ms: number): number => {
  let count = 0
  let batch = 1
  const start = cpuMs()
  let elapsed = 0
  while (elapsed < ms) {
    for (let i = 0; i < batch; i++) once()
    count += batch
    elapsed = cpuMs() - start
    if (elapsed < ms / 20) batch *= 2
  }
  return (count / elapsed) * 1000
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}

type Contender = () => void

// The masker a server makes (`createMasker`, as the engine does): SIMD unless `--no-simd`.
const masker = createMasker({ simd: !process.argv.includes('--no-simd') })

// --- decode ---------------------------------------------------------------------------

const twinportDecode = (wire: Uint8Array): Contender => () => {
  const step = decodeFrame(wire, LIMITS, masker)
  if (E.isLeft(step) || step.right._tag !== 'Parsed') throw new Error('bench frame did not decode')
  const assembled = assembleMessage(initialAssembly, step.right.value, MESSAGE_LIMITS)
  if (E.isLeft(assembled) || assembled.right.output?._tag !== 'Binary') throw new Error('bench frame did not assemble')
}

const twinportDecodeSmall = (wire: Uint8Array): Contender => {
  const out = new Uint8Array(wire.length)
  return () => {
    if (unmaskSmallFrame(wire, 0, wire.length, MESSAGE_LIMITS.maxMessage, out, 0) === NOT_SMALL) throw new Error('bench frame is not small')
  }
}

const wsDecode = (ws: WsModule, wire: Uint8Array): Contender => {
  const receiver = new ws.Receiver({ isServer: true, maxPayload: 4 << 20, allowSynchronousEvents: true, binaryType: 'nodebuffer' })
  let messages = 0
  receiver.on('message', () => {
    messages++
  })
  // ws unmasks in place: it gets its own copy (toggled back and forth by each call, which
  // costs it nothing and changes nothing measured).
  const own = Buffer.from(wire)
  const done = (err?: Error | null): void => {
    if (err) throw err
  }
  return () => {
    const before = messages
    receiver._write(own, null, done)
    if (messages !== before + 1) throw new Error('ws did not emit the bench message')
  }
}

// --- encode ---------------------------------------------------------------------------

const twinportEncodeMasked = (payload: Uint8Array): Contender => () => {
  encodeFrameBytes({ opcode: OPCODE.BINARY, payload }, KEY, masker)
}

const wsEncode = (ws: WsModule, payload: Uint8Array, mask: boolean): Contender => {
  const data = Buffer.from(payload)
  const options = {
    fin: true,
    rsv1: false,
    opcode: OPCODE.BINARY,
    mask,
    readOnly: true,
    maskBuffer: Buffer.alloc(4),
    generateMask: (m: Uint8Array) => m.set(KEY),
  }
  return () => {
    ws.Sender.frame(data, options)
  }
}

const twinportEncodeUnmasked = (payload: Uint8Array): Contender => () => {
  encodeFrame({ opcode: OPCODE.BINARY, payload })
}

// --- run --------------------------------------------------------------------------------

interface Case {
  readonly name: string
  readonly size: string
  readonly twinport: Contender
  readonly ws: Contender
  readonly wsPureJs: Contender
  readonly mask: string
  readonly copyFloor?: Contender
}

// The least a non-mutating masked decode or encode does: one fresh array, filled.
const copyFloor = (payload: Uint8Array): Contender => () => {
  payload.slice()
}

// How `maskCopy` masks a copy of `length` bytes (header room included).
const maskPath = (length: number): string => (length > SIMD_COPY_ABOVE && masker.simd() !== null ? 'simd' : 'js')

const cases = (native: WsModule, pure: WsModule): Case[] =>
  SIZES.flatMap(([size, n]) => {
    const payload = payloadOf(n)
    const wire = encodeFrameBytes({ opcode: OPCODE.BINARY, payload }, KEY)
    const floor = copyFloor(payload)
    return [
      { name: 'decode, masked', size, twinport: twinportDecode(wire), ws: wsDecode(native, wire), wsPureJs: wsDecode(pure, wire), mask: maskPath(n), copyFloor: floor },
      ...(n <= SMALL_MAX
        ? [{ name: 'decode, small-frame path', size, twinport: twinportDecodeSmall(wire), ws: wsDecode(native, wire), wsPureJs: wsDecode(pure, wire), mask: 'js', copyFloor: floor }]
        : []),
      // encodeFrameBytes masks into the frame: the copy includes the header.
      { name: 'encode, masked', size, twinport: twinportEncodeMasked(payload), ws: wsEncode(native, payload, true), wsPureJs: wsEncode(pure, payload, true), mask: maskPath(wire.length), copyFloor: floor },
      { name: 'encode, unmasked', size, twinport: twinportEncodeUnmasked(payload), ws: wsEncode(native, payload, false), wsPureJs: wsEncode(pure, payload, false), mask: '-' },
    ]
  })

/**
 * Measures every case: `rounds` rounds of `ms` per contender, contenders alternating, the
 * median round kept. Answers one row per case (operations per second and ratios).
 */
export const run = (ms = 250, rounds = 5): BenchRow[] => {
  const native = loadWs(false)
  const pure = loadWs(true)
  return cases(native, pure).map((c) => {
    const samples = { twinport: [] as number[], ws: [] as number[], wsPureJs: [] as number[] }
    // Warm-up, so the first round measures optimised code.
    for (const f of [c.twinport, c.ws, c.wsPureJs]) measure(f, ms / 3)
    for (let r = 0; r < rounds; r++) {
      samples.twinport.push(measure(c.twinport, ms))
      samples.ws.push(measure(c.ws, ms))
      samples.wsPureJs.push(measure(c.wsPureJs, ms))
    }
    const twinport = median(samples.twinport)
    const ws = median(samples.ws)
    const wsPureJs = median(samples.wsPureJs)
    // Measured after the rounds, not among them: the garbage collector would charge its many
    // buffers to whichever contender ran next.
    const floorOf = (f: Contender): number => {
      measure(f, ms / 3)
      return median(Array.from({ length: rounds }, () => measure(f, ms)))
    }
    const floor = c.copyFloor === undefined ? {} : { copyFloor: floorOf(c.copyFloor) }
    return { case: c.name, size: c.size, twinport, ws, ratio: twinport / ws, wsPureJs, ratioPureJs: twinport / wsPureJs, mask: c.mask, ...floor }
  })
}

const fmt = (n: number): string => Math.round(n).toLocaleString('en-US')

if (import.meta.url === `file://${process.argv[1]}`) {
  const quick = process.argv.includes('--quick')
  const native = loadWs(false)
  console.log(
    `ws ${createRequire(import.meta.url)('ws/package.json').version}, native masking: ${native.usesNativeMask ? 'yes (bufferutil)' : 'no'}; ` +
      `twinport masking: ${masker.simd() !== null ? `WebAssembly SIMD above ${SIMD_COPY_ABOVE} B` : 'JavaScript'}; Node ${process.version}`,
  )
  const rows = quick ? run(100, 3) : run()
  const head = ['case', 'size', 'twinport ops/s', 'ws ops/s', 'ratio', 'ws (JS mask) ops/s', 'ratio', 'mask', 'copy floor ops/s', 'floor/ws']
  const widths = [25, 8, 16, 16, 7, 20, 7, 5, 17, 9]
  const line = (cells: readonly string[]): string => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join(' ')
  console.log(line(head))
  for (const r of rows) {
    const floor = r.copyFloor === undefined ? ['', ''] : [fmt(r.copyFloor), (r.copyFloor / r.ws).toFixed(2)]
    console.log(line([r.case, r.size, fmt(r.twinport), fmt(r.ws), r.ratio.toFixed(2), fmt(r.wsPureJs), r.ratioPureJs.toFixed(2), r.mask, ...floor]))
  }
}

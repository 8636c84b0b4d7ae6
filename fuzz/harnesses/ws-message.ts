/**
 * Harness `ws-message`: message assembly and UTF-8. The input is read as a run of frames
 * (a header byte: FIN, RSV1, opcode; a length byte; the payload), fed to `assembleMessage`
 * one by one. Checked against a model written from RFC 6455 §5.4-5.6 and RFC 7692 §6.1: the
 * messages that come out (text by a fatal streaming `TextDecoder`, binary and compressed data
 * joined), and the first error with its close code at the same frame (1002 for a misplaced
 * continuation, opcode or RSV1, 1007 as soon as the text cannot be UTF-8, 1009 past the
 * message limit). `decodeUtf8Fragment`, over the input split in two, agrees with the fatal
 * decoder on the whole.
 */
import * as E from 'fp-ts/lib/Either.js'
import { type AssemblyState, assembleMessage, compressedBound, initialAssembly } from '../../lib/core/ws/assemble-message.js'
import type { Frame } from '../../lib/core/ws/frame.js'
import { decodeUtf8Fragment } from '../../lib/core/ws/utf8.js'
import { expect, same, splitPoint, plainBytes } from '../support/contract.js'

const MAX_MESSAGE = 40

// The frames an input stands for: at most 64, payloads sliced from the input itself.
const framesOf = (data: Uint8Array): Frame[] => {
  const frames: Frame[] = []
  for (let at = 0; at + 2 <= data.length && frames.length < 64; ) {
    const h = data[at]!
    const opcodes = [0, 1, 2, 8, 9, 10, 0, 1, 2, 0, 1, 2, 3, 11, 0, 2]
    const length = Math.min(data[at + 1]! & 0x3f, data.length - at - 2)
    frames.push({ fin: (h & 0x80) !== 0, rsv1: (h & 0x40) === 0x40 && (h & 0x20) === 0x20, rsv2: false, rsv3: false, opcode: opcodes[h & 0x0f]!, payload: data.subarray(at + 2, at + 2 + length) })
    at += 2 + length
  }
  return frames
}

type Seen = { readonly out: unknown } | { readonly error: number }

// The model: what each frame gives, as plain data.
const model = (frames: readonly Frame[]): Seen[] => {
  const seen: Seen[] = []
  let open: { kind: 'text' | 'binary' | 'compressed'; opcode: number; parts: Uint8Array[]; size: number; decoder: TextDecoder; text: string } | undefined
  for (const f of frames) {
    const control = f.opcode >= 8
    if (control) {
      if (f.opcode > 10 || f.rsv1) return [...seen, { error: 1002 }]
      seen.push({ out: f.opcode })
      continue
    }
    if (f.opcode > 2) return [...seen, { error: 1002 }]
    if (f.opcode === 0 ? open === undefined || f.rsv1 : open !== undefined) return [...seen, { error: 1002 }]
    if (open === undefined) {
      const kind = f.rsv1 ? 'compressed' : f.opcode === 1 ? 'text' : 'binary'
      open = { kind, opcode: f.opcode, parts: [], size: 0, decoder: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }), text: '' }
    }
    open.size += f.payload.length
    if (open.size > (open.kind === 'compressed' ? compressedBound(MAX_MESSAGE) : MAX_MESSAGE)) return [...seen, { error: 1009 }]
    open.parts.push(Uint8Array.from(f.payload))
    if (open.kind === 'text') {
      try {
        open.text += open.decoder.decode(f.payload, { stream: !f.fin })
      } catch {
        return [...seen, { error: 1007 }]
      }
    }
    if (!f.fin) {
      seen.push({ out: undefined })
      continue
    }
    const joined = Uint8Array.from(open.parts.flatMap((p) => [...p]))
    seen.push({ out: open.kind === 'text' ? open.text : open.kind === 'binary' ? joined : { compressed: open.opcode, joined } })
    open = undefined
  }
  return seen
}

const actual = (frames: readonly Frame[]): Seen[] => {
  const seen: Seen[] = []
  let state: AssemblyState = initialAssembly
  for (const f of frames) {
    const step = assembleMessage(state, f, { maxMessage: MAX_MESSAGE })
    if (E.isLeft(step)) return [...seen, { error: step.left.closeCode }]
    state = step.right.state
    const o = step.right.output
    seen.push({
      out: o === undefined ? undefined
        : o._tag === 'Text' ? o.text
        : o._tag === 'Binary' ? Uint8Array.from(o.data)
        : o._tag === 'Compressed' ? { compressed: o.opcode, joined: Uint8Array.from(o.data) }
        : o._tag === 'Ping' ? 9 : o._tag === 'Pong' ? 10 : 8,
    })
  }
  return seen
}

// Close frames are judged by their payload too (code, UTF-8 reason): that is the close-payload
// harness's part, so here a close frame that assembly refuses ends both runs alike.
const untilClose = (frames: readonly Frame[]): Frame[] => {
  const i = frames.findIndex((f) => f.opcode === 8)
  return i < 0 ? [...frames] : frames.slice(0, i)
}

const checkUtf8 = (data: Uint8Array): void => {
  let whole: string | undefined
  try {
    whole = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(data)
  } catch {
    whole = undefined
  }
  const k = splitPoint(data)
  const first = decodeUtf8Fragment(new Uint8Array(0), data.subarray(0, k))
  const second = first === undefined ? undefined : decodeUtf8Fragment(first.pending, data.subarray(k))
  if (whole === undefined) expect(second === undefined || second.pending.length > 0, 'decodeUtf8Fragment took bytes that are not UTF-8')
  else same(second === undefined ? undefined : first!.text + second.text, whole, 'decodeUtf8Fragment in two pieces vs the whole')
}

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const frames = untilClose(framesOf(data))
  same(actual(frames), model(frames), 'assembleMessage vs the RFC 6455 model')
  checkUtf8(data)
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

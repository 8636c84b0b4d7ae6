/**
 * `assembleMessage`: frames in, messages out (RFC 6455 §5.4–§5.6), as a pure step over an
 * immutable state. Fragments of a text or binary message are collected until FIN; control
 * frames may arrive between them and come out at once. Text is checked as UTF-8 fragment by
 * fragment, so it fails on the frame that brings the first invalid byte; close payloads are
 * validated.
 *
 * A message whose first frame has RSV1 set is compressed (permessage-deflate, RFC 7692 §6):
 * its fragments are joined still compressed and come out as one `Compressed` value, without
 * a UTF-8 check; the shell inflates the payload and `inflatedMessage` checks the result.
 * `decodeFrame` lets RSV1 through only when the extension was negotiated.
 *
 * States are values: a state may be used any number of times and is never changed by a step.
 * A state in the middle of a binary message holds the fragments' payloads as they were given
 * (views, not copies); the caller must not change them.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import * as E from 'fp-ts/lib/Either.js'
import { parseClosePayload } from './close-payload.js'
import { type Frame, OPCODE } from './frame.js'
import { decodeUtf8, decodeUtf8Fragment } from './utf8.js'
import {
  expectedContinuation,
  invalidUtf8,
  messageTooBig,
  misplacedRsv1,
  reservedOpcode,
  unexpectedContinuation,
  type WsError,
} from './ws-error.js'

/** A text message, decoded. */
export interface Text {
  readonly _tag: 'Text'
  readonly text: string
}

/** A binary message: the payload itself when it came in one frame, else the fragments joined. */
export interface Binary {
  readonly _tag: 'Binary'
  readonly data: Uint8Array
}

/** A ping; the shell answers with a pong carrying the same payload. */
export interface Ping {
  readonly _tag: 'Ping'
  readonly payload: Uint8Array
}

/** A pong (an answer to our ping, or unsolicited: both are fine, RFC 6455 §5.5.3). */
export interface Pong {
  readonly _tag: 'Pong'
  readonly payload: Uint8Array
}

/** The peer's close: no code when its close frame was empty. */
export interface Close {
  readonly _tag: 'Close'
  readonly code: number | undefined
  readonly reason: string
}

/**
 * A compressed text or binary message (RSV1 on its first frame, RFC 7692 §6): the payloads
 * of its frames joined, still compressed. Text is not checked yet: the shell inflates `data`
 * (RFC 7692 §7.2.2) and gives the result to `inflatedMessage`, which checks UTF-8 (1007).
 */
export interface Compressed {
  readonly _tag: 'Compressed'
  readonly opcode: typeof OPCODE.TEXT | typeof OPCODE.BINARY
  readonly data: Uint8Array
}

/** What the connection receives, frame by frame. */
export type Incoming = Text | Binary | Compressed | Ping | Pong | Close

// Collected pieces, newest first: adding one is O(1) and leaves the older list intact.
interface Pieces<A> {
  readonly head: A
  readonly tail: Pieces<A> | undefined
}

/** Between messages. */
export interface Idle {
  readonly _tag: 'Idle'
}

/** In a fragmented text message: the text so far and the bytes of a code point still open. */
export interface TextInProgress {
  readonly _tag: 'TextInProgress'
  readonly size: number
  readonly texts: Pieces<string>
  readonly pending: Uint8Array
}

/** In a fragmented binary message: the payloads so far. */
export interface BinaryInProgress {
  readonly _tag: 'BinaryInProgress'
  readonly size: number
  readonly chunks: Pieces<Uint8Array> | undefined
}

/** In a fragmented compressed message: the payloads so far, still compressed. */
export interface CompressedInProgress {
  readonly _tag: 'CompressedInProgress'
  readonly opcode: typeof OPCODE.TEXT | typeof OPCODE.BINARY
  readonly size: number
  readonly chunks: Pieces<Uint8Array> | undefined
}

/** Where a connection is between two frames. */
export type AssemblyState = Idle | TextInProgress | BinaryInProgress | CompressedInProgress

/** The state of a new connection. */
export const initialAssembly: AssemblyState = Object.freeze({ _tag: 'Idle' })

/** What one step gives: the next state, and a message when this frame completed one. */
export interface AssemblyStep {
  readonly state: AssemblyState
  readonly output: Incoming | undefined
}

/** The limit assembly enforces. */
export interface AssemblyLimits {
  /**
   * The largest message, all fragments together (1009). A compressed message is held to
   * `compressedBound(maxMessage)` here, and to `maxMessage` itself once inflated.
   */
  readonly maxMessage: number
}

/**
 * The most compressed bytes a message of `maxMessage` bytes can take. DEFLATE may grow data
 * it cannot shrink: stored blocks cost 5 bytes per block of at most 64 KiB, and zlib bounds
 * the growth by `n + n/4096 + n/16384 + 13` (`deflateBound`). This bound is above that, so
 * a message within the limit once inflated is never refused for its compressed size.
 *
 * @example compressedBound(1024) // 1024 + 0 + 64
 */
export const compressedBound = (maxMessage: number): number => maxMessage + Math.floor(maxMessage / 2048) + 64

const toArray = <A>(pieces: Pieces<A> | undefined): A[] => {
  const out: A[] = []
  for (let p = pieces; p !== undefined; p = p.tail) out.push(p.head)
  return out.reverse()
}

const joinBytes = (chunks: Pieces<Uint8Array> | undefined, size: number): Uint8Array => {
  const list = toArray(chunks)
  if (list.length === 1) return list[0]!
  const out = new Uint8Array(size)
  let at = 0
  for (const chunk of list) {
    out.set(chunk, at)
    at += chunk.length
  }
  return out
}

const step = (state: AssemblyState, output: Incoming | undefined): E.Either<never, AssemblyStep> => E.right({ state, output })

const control = (state: AssemblyState, frame: Frame): E.Either<WsError, AssemblyStep> => {
  if (frame.opcode === OPCODE.PING) return step(state, { _tag: 'Ping', payload: frame.payload })
  if (frame.opcode === OPCODE.PONG) return step(state, { _tag: 'Pong', payload: frame.payload })
  const close = parseClosePayload(frame.payload)
  return E.isLeft(close) ? close : step(state, { _tag: 'Close', code: close.right.code, reason: close.right.reason })
}

// The first frame of a compressed message (RSV1 set, RFC 7692 §6), when idle.
const startCompressed = (frame: Frame, limits: AssemblyLimits): E.Either<WsError, AssemblyStep> => {
  const size = frame.payload.length
  const bound = compressedBound(limits.maxMessage)
  if (size > bound) return E.left(messageTooBig(size, bound))
  const opcode = frame.opcode === OPCODE.TEXT ? OPCODE.TEXT : OPCODE.BINARY
  if (frame.fin) return step(initialAssembly, { _tag: 'Compressed', opcode, data: frame.payload })
  return step({ _tag: 'CompressedInProgress', opcode, size, chunks: size === 0 ? undefined : { head: frame.payload, tail: undefined } }, undefined)
}

// A continuation frame of a compressed message.
const resumeCompressed = (state: CompressedInProgress, frame: Frame, limits: AssemblyLimits): E.Either<WsError, AssemblyStep> => {
  const size = state.size + frame.payload.length
  const bound = compressedBound(limits.maxMessage)
  if (size > bound) return E.left(messageTooBig(size, bound))
  const chunks = frame.payload.length === 0 ? state.chunks : { head: frame.payload, tail: state.chunks }
  if (frame.fin) return step(initialAssembly, { _tag: 'Compressed', opcode: state.opcode, data: joinBytes(chunks, size) })
  return step({ _tag: 'CompressedInProgress', opcode: state.opcode, size, chunks }, undefined)
}

// The first frame of a message (text or binary), when idle.
const start = (frame: Frame, limits: AssemblyLimits): E.Either<WsError, AssemblyStep> => {
  if (frame.rsv1) return startCompressed(frame, limits)
  const size = frame.payload.length
  if (size > limits.maxMessage) return E.left(messageTooBig(size, limits.maxMessage))
  if (frame.opcode === OPCODE.TEXT) {
    if (frame.fin) {
      const text = decodeUtf8(frame.payload)
      return text === undefined ? E.left(invalidUtf8('text')) : step(initialAssembly, { _tag: 'Text', text })
    }
    const progress = decodeUtf8Fragment(new Uint8Array(0), frame.payload)
    if (progress === undefined) return E.left(invalidUtf8('text'))
    return step({ _tag: 'TextInProgress', size, texts: { head: progress.text, tail: undefined }, pending: progress.pending }, undefined)
  }
  if (frame.fin) return step(initialAssembly, { _tag: 'Binary', data: frame.payload })
  return step({ _tag: 'BinaryInProgress', size, chunks: size === 0 ? undefined : { head: frame.payload, tail: undefined } }, undefined)
}

// A continuation frame, in the middle of a message.
const resume = (state: TextInProgress | BinaryInProgress | CompressedInProgress, frame: Frame, limits: AssemblyLimits): E.Either<WsError, AssemblyStep> => {
  if (state._tag === 'CompressedInProgress') return resumeCompressed(state, frame, limits)
  const size = state.size + frame.payload.length
  if (size > limits.maxMessage) return E.left(messageTooBig(size, limits.maxMessage))
  if (state._tag === 'BinaryInProgress') {
    const chunks = frame.payload.length === 0 ? state.chunks : { head: frame.payload, tail: state.chunks }
    if (frame.fin) return step(initialAssembly, { _tag: 'Binary', data: joinBytes(chunks, size) })
    return step({ _tag: 'BinaryInProgress', size, chunks }, undefined)
  }
  const progress = decodeUtf8Fragment(state.pending, frame.payload)
  if (progress === undefined || (frame.fin && progress.pending.length > 0)) return E.left(invalidUtf8('text'))
  const texts = { head: progress.text, tail: state.texts }
  if (frame.fin) return step(initialAssembly, { _tag: 'Text', text: toArray(texts).join('') })
  return step({ _tag: 'TextInProgress', size, texts, pending: progress.pending }, undefined)
}

/**
 * Takes one decoded frame: gives the next state and, when the frame completed a message or
 * was a control frame, what was received. Protocol errors come back with their close code.
 *
 * @example
 * // RFC 6455 §5.7: "Hel" then "lo" as two fragments.
 * const first = assembleMessage(initialAssembly, { ...frame, fin: false, opcode: OPCODE.TEXT, payload: hel }, { maxMessage: 1024 })
 * // Right({ state: TextInProgress, output: undefined })
 * // then, with the state from `first` and { fin: true, opcode: OPCODE.CONTINUATION, payload: lo }:
 * // Right({ state: Idle, output: { _tag: 'Text', text: 'Hello' } })
 */
export const assembleMessage = (state: AssemblyState, frame: Frame, limits: AssemblyLimits): E.Either<WsError, AssemblyStep> => {
  const opcode = frame.opcode
  // RFC 7692 §6.1: RSV1 marks the first frame of a compressed message and nothing else.
  // decodeFrame refuses it elsewhere already; a hand-made frame may carry it.
  if (opcode === OPCODE.CLOSE || opcode === OPCODE.PING || opcode === OPCODE.PONG) {
    return frame.rsv1 ? E.left(misplacedRsv1(opcode)) : control(state, frame)
  }
  // decodeFrame lets no other opcode through; a hand-made frame may have one.
  if (opcode > OPCODE.BINARY) return E.left(reservedOpcode(opcode))
  if (opcode === OPCODE.CONTINUATION) {
    if (frame.rsv1) return E.left(misplacedRsv1(opcode))
    return state._tag === 'Idle' ? E.left(unexpectedContinuation()) : resume(state, frame, limits)
  }
  return state._tag === 'Idle' ? start(frame, limits) : E.left(expectedContinuation(opcode))
}

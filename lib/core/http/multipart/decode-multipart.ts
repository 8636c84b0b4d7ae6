/**
 * `decodeMultipart`: one step of an incremental `multipart/form-data` parser (RFC 7578, the
 * body rules of RFC 2046 §5.1), fed the chunks of a body as they arrive:
 *
 *   multipart-body := [preamble CRLF] dash-boundary transport-padding CRLF
 *                     body-part *encapsulation close-delimiter transport-padding [CRLF epilogue]
 *   encapsulation  := delimiter transport-padding CRLF body-part
 *   delimiter      := CRLF dash-boundary          dash-boundary := "--" boundary
 *   close-delimiter := delimiter "--"             transport-padding := *LWSP-char
 *
 * Each call takes the state and a chunk and returns one event with the rest of the chunk, or
 * `NeedMore` once the chunk is used up. Part data comes out as views of the chunk; the only
 * bytes copied are those that may start a delimiter at a chunk's end (fewer than the
 * delimiter) and a part's header section while it spans chunks (bounded by
 * `maxPartHeaderBytes`). The state is an immutable value: a step never changes the one given.
 *
 * The body is treated as if a CRLF came before it, so a first boundary at offset 0 is found
 * like every later one (the state starts with that CRLF carried). A boundary found at a line
 * start is a delimiter whatever follows it (RFC 2046 §5.1.1: "it is sufficient that the
 * boundary appear in its entirety following the CRLF"); one not followed by `--` or by
 * padding and CRLF is an error. Preamble and epilogue are skipped.
 *
 * Pure and portable: no node:* imports, no Buffer. Never throws.
 */
import { type Either, left, right } from 'fp-ts/lib/Either.js'
import type { NeedMore, Parsed } from '../../decode-step.js'
import { continuesDelimiter, type Delimiter, delimiterTail, findDelimiter } from './delimiter.js'
import {
  fieldTooLarge,
  fileTooLarge,
  invalidDelimiter,
  type MultipartError,
  partHeaderTooLarge,
  tooManyFields,
  tooManyFiles,
  tooManyParts,
} from './multipart-error.js'
import type { MultipartEvent, PartHead } from './multipart-event.js'
import type { MultipartLimits } from './multipart-limits.js'
import { parsePartHead } from './parse-part-head.js'

/**
 * Where a body stands: `Preamble` before the first boundary; `Boundary` just after a
 * delimiter; `Dash` after its first `-`; `Padding` in transport padding; `Cr` after the
 * boundary line's CR; `Headers` in a part's header section; `Data` in a part's data; `Done`
 * after the close delimiter.
 */
export type MultipartPhase = 'Preamble' | 'Boundary' | 'Dash' | 'Padding' | 'Cr' | 'Headers' | 'Data' | 'Done'

/** The parser's state between chunks: a value, passed in and returned. */
export interface MultipartState {
  readonly phase: MultipartPhase
  readonly delimiter: Delimiter
  readonly limits: MultipartLimits
  /**
   * Bytes of earlier chunks not decided yet, copied: in `Preamble` and `Data` a proper start
   * of the delimiter; in `Headers` the header section so far.
   */
  readonly carry: Uint8Array
  /** Bytes since the last delimiter, in `Boundary` to `Headers` (for `maxPartHeaderBytes`). */
  readonly headerBytes: number
  /** Parts, fields and files begun so far. */
  readonly parts: number
  readonly fields: number
  readonly files: number
  /** The part whose data is being read, in `Data`. */
  readonly part: PartHead | undefined
  /** Data bytes of that part so far. */
  readonly size: number
}

/** The chunk is used up; what could not be decided yet is carried in `state`. Call again with the next chunk. */
export interface MultipartNeedMore extends NeedMore {
  readonly state: MultipartState
}

/** An event, the rest of the chunk (a view) to call again with, and the state to call with. */
export interface MultipartParsed extends Parsed<MultipartEvent> {
  readonly state: MultipartState
}

/** The outcome of one step. */
export type MultipartStep = MultipartNeedMore | MultipartParsed

const EMPTY = new Uint8Array(0)
const PART_END: MultipartEvent = Object.freeze({ _tag: 'PartEnd' })
const END: MultipartEvent = Object.freeze({ _tag: 'End' })
const CR = 0x0d
const LF = 0x0a

const join = (a: Uint8Array, b: Uint8Array): Uint8Array => {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}

/**
 * The end of a header section that starts at `start` (just after its empty line), looking
 * for the empty line's LF from `from` to before `to`; -1 when it is not there.
 */
const headerSectionEnd = (bytes: Uint8Array, start: number, from: number, to: number): number => {
  if (to - start >= 2 && bytes[start] === CR && bytes[start + 1] === LF) return start + 2
  let i = bytes.indexOf(LF, Math.max(from, start + 3))
  while (i >= 0 && i < to) {
    if (bytes[i - 1] === CR && bytes[i - 2] === LF && bytes[i - 3] === CR) return i + 1
    i = bytes.indexOf(LF, i + 1)
  }
  return -1
}

/**
 * The step of a large part's middle, the one a big upload takes for nearly every read: data,
 * nothing carried, no delimiter in the chunk. The chunk up to a possible start of a delimiter
 * at its end is the event, with one state object and no closures; `undefined` for anything
 * else (a delimiter, an empty chunk, a chunk that is all a possible delimiter start, a limit
 * crossed), which the general step below decides.
 */
const dataStep = (state: MultipartState, chunk: Uint8Array): Either<MultipartError, MultipartStep> | undefined => {
  const len = chunk.length
  if (len === 0 || findDelimiter(state.delimiter, chunk, 0) >= 0) return undefined
  const end = delimiterTail(state.delimiter, chunk, 0)
  const size = state.size + end
  const head = state.part as PartHead
  if (end === 0 || size > (head.filename === undefined ? state.limits.maxFieldBytes : state.limits.maxFileBytes)) return undefined
  const { phase, delimiter, limits, headerBytes, parts, fields, files, part } = state
  // Built as the general step builds it, so every state has one shape.
  const carry = end < len ? chunk.slice(end, len) : EMPTY
  const next: MultipartState = { phase, delimiter, limits, carry, headerBytes, parts, fields, files, part, size }
  return right({ _tag: 'Parsed', value: { _tag: 'PartData', data: end < len ? chunk.subarray(0, end) : chunk }, rest: chunk.subarray(len), state: next })
}

/**
 * One step over `chunk`: the next event and the rest of the chunk, or `NeedMore` when the
 * chunk is used up, or the error that ends the body.
 *
 * @example
 * const state = E.getOrElseW(() => { throw 0 })(startMultipart('xyz'))
 * const step = decodeMultipart(state, bytes('--xyz\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--xyz--'))
 * // right({ _tag: 'Parsed', value: { _tag: 'PartStart', part: { name: 'a', ... } }, rest, state })
 */
export const decodeMultipart = (state: MultipartState, chunk: Uint8Array): Either<MultipartError, MultipartStep> => {
  if (state.phase === 'Data' && state.carry.length === 0) {
    const step = dataStep(state, chunk)
    if (step !== undefined) return step
  }
  const { delimiter, limits } = state
  const m = delimiter.bytes.length
  const len = chunk.length
  let { phase, carry, headerBytes, parts, fields, files, part, size } = state
  let pos = 0
  const next = (): MultipartState => ({ phase, delimiter, limits, carry, headerBytes, parts, fields, files, part, size })
  const wait = (): Either<MultipartError, MultipartStep> => right({ _tag: 'NeedMore', atLeast: 1, state: next() })
  const emit = (value: MultipartEvent, at: number): Either<MultipartError, MultipartStep> =>
    right({ _tag: 'Parsed', value, rest: chunk.subarray(at), state: next() })
  // Data of the current part, checked against its limit.
  const data = (bytes: Uint8Array, at: number): Either<MultipartError, MultipartStep> => {
    size += bytes.length
    const head = part as PartHead
    if (head.filename === undefined) {
      if (size > limits.maxFieldBytes) return left(fieldTooLarge(head.name, limits.maxFieldBytes))
    } else if (size > limits.maxFileBytes) return left(fileTooLarge(head.name, limits.maxFileBytes))
    return emit({ _tag: 'PartData', data: bytes }, at)
  }

  for (;;) {
    switch (phase) {
      case 'Done':
        return wait()
      case 'Preamble':
      case 'Data': {
        if (carry.length > 0) {
          if (pos === len) return wait()
          const goesOn = continuesDelimiter(delimiter, carry.length, chunk, pos)
          if (goesOn === 0) {
            carry = join(carry, chunk.subarray(pos))
            return wait()
          }
          if (goesOn === 1) {
            pos += m - carry.length
            carry = EMPTY
            const wasData = phase === 'Data'
            phase = 'Boundary'
            headerBytes = 0
            if (wasData) return emit(PART_END, pos)
            continue
          }
          // The carried bytes start no delimiter: they are data (the next can start only at a CR in the chunk).
          const carried = carry
          carry = EMPTY
          if (phase === 'Data') return data(carried, pos)
          continue
        }
        if (pos === len) return wait()
        const at = findDelimiter(delimiter, chunk, pos)
        if (at === pos) {
          pos += m
          const wasData = phase === 'Data'
          phase = 'Boundary'
          headerBytes = 0
          if (wasData) return emit(PART_END, pos)
          continue
        }
        let end = at
        let after = at
        if (at < 0) {
          end = delimiterTail(delimiter, chunk, pos)
          after = len
          if (end < len) carry = chunk.slice(end, len)
        }
        if (phase === 'Data') return end > pos ? data(chunk.subarray(pos, end), after) : wait()
        pos = after
        continue
      }
      case 'Boundary':
      case 'Dash':
      case 'Padding':
      case 'Cr': {
        if (pos === len) return wait()
        const c = chunk[pos] as number
        pos += 1
        if (++headerBytes > limits.maxPartHeaderBytes) return left(partHeaderTooLarge(limits.maxPartHeaderBytes))
        if (phase === 'Dash') {
          if (c !== 0x2d) return left(invalidDelimiter())
          phase = 'Done'
          part = undefined
          return emit(END, pos)
        }
        if (phase === 'Cr') {
          if (c !== LF) return left(invalidDelimiter())
          phase = 'Headers'
        } else if (c === CR) phase = 'Cr'
        else if (c === 0x20 || c === 0x09) phase = 'Padding'
        else if (c === 0x2d && phase === 'Boundary') phase = 'Dash'
        else return left(invalidDelimiter())
        continue
      }
      case 'Headers': {
        if (pos === len) return wait()
        const budget = limits.maxPartHeaderBytes - headerBytes
        let bytes = chunk
        let start = pos
        let from = pos
        if (carry.length > 0) {
          // The section so far and as much of this chunk as the budget leaves room for.
          bytes = join(carry, chunk.subarray(pos, pos + Math.max(0, budget - carry.length)))
          start = 0
          from = Math.max(0, carry.length - 3)
        }
        const to = Math.min(bytes.length, start + budget)
        const end = headerSectionEnd(bytes, start, from, to)
        if (end < 0) {
          if (bytes.length - start >= budget) return left(partHeaderTooLarge(limits.maxPartHeaderBytes))
          carry = carry.length > 0 ? bytes : chunk.slice(pos)
          return wait()
        }
        const head = parsePartHead(bytes, start, end)
        if (head._tag === 'Left') return head
        pos += end - start - carry.length
        carry = EMPTY
        const isFile = head.right.filename !== undefined
        if (++parts > limits.maxParts) return left(tooManyParts(limits.maxParts))
        if (isFile && ++files > limits.maxFiles) return left(tooManyFiles(limits.maxFiles))
        if (!isFile && ++fields > limits.maxFields) return left(tooManyFields(limits.maxFields))
        phase = 'Data'
        part = head.right
        size = 0
        return emit({ _tag: 'PartStart', part: head.right }, pos)
      }
    }
  }
}

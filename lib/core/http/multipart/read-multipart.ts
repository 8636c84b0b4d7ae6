/**
 * `readMultipart`: a `multipart/form-data` request body (RFC 7578) as the parts a handler
 * reads, in order, as they arrive: a text field as its string, a file as a stream of its bytes
 * with its name, filename and content type. Built on the incremental decoder
 * (`decodeMultipart`) over any `AsyncIterable` of bytes (a route's streamed `req.body`), so
 * nothing is read ahead of the handler: backpressure reaches the client. A file not read to
 * its end before the next part is asked for is skipped.
 *
 * What cannot be read throws `MultipartReadError` (with the tagged `MultipartError`, its
 * status and message); a server answers it with that status when the handler lets it through.
 *
 * Pure and portable: no node:* imports, no I/O of its own.
 */
import { joinBytes } from '../../join-bytes.js'
import { boundaryOf } from './boundary-of.js'
import { decodeMultipart, type MultipartState } from './decode-multipart.js'
import { endMultipart } from './end-multipart.js'
import type { MultipartError } from './multipart-error.js'
import type { MultipartEvent } from './multipart-event.js'
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './multipart-limits.js'
import { startMultipart } from './start-multipart.js'
import type { Header } from '../types.js'

/** A non-file part: its text, decoded as UTF-8. */
export interface FormField {
  readonly kind: 'field'
  readonly name: string
  readonly value: string
  readonly contentType: string
  readonly headers: readonly Header[]
}

/** A file part: read `data` (or `bytes()`) before asking for the next part, or it is skipped. */
export interface FormFile {
  readonly kind: 'file'
  readonly name: string
  /** As sent (`filename*` decoded), no path stripped: never use it as a path as it is. */
  readonly filename: string
  readonly contentType: string
  readonly headers: readonly Header[]
  /** The file's bytes as they arrive (views: copy what you keep). Read once. */
  readonly data: AsyncIterable<Uint8Array>
  /** The whole file in one array (bounded by `maxFileBytes`). */
  bytes(): Promise<Uint8Array>
}

/** One part of the form. */
export type FormPart = FormField | FormFile

/** What reading a multipart body throws: the tagged error, with its HTTP status and message. */
export class MultipartReadError extends Error {
  constructor(readonly error: MultipartError) {
    super(error.message)
    this.name = 'MultipartReadError'
  }
  get status(): number {
    return this.error.status
  }
}

/** What `readMultipart` reads: a request's headers and its body as bytes over time. */
export interface MultipartSource {
  readonly headerMap: ReadonlyMap<string, string>
  readonly body: AsyncIterable<Uint8Array>
}

const EMPTY = new Uint8Array(0)
const utf8 = new TextDecoder()

const END: MultipartEvent = Object.freeze({ _tag: 'End' })

// The decoder's events pulled one at a time from the body, as the handler asks for them.
class EventPump {
  private chunk: Uint8Array = EMPTY
  private finished = false

  constructor(
    private state: MultipartState,
    private readonly source: AsyncIterator<Uint8Array>,
  ) {}

  // The next event the bytes in hand hold, `undefined` when a read is needed first. Throws
  // `MultipartReadError`. A chunk is decoded until it is used up, and never asked of the
  // decoder once empty (the answer would be `NeedMore` whatever the state).
  step(): MultipartEvent | undefined {
    while (this.chunk.length > 0) {
      const step = decodeMultipart(this.state, this.chunk)
      if (step._tag === 'Left') throw new MultipartReadError(step.left)
      this.state = step.right.state
      if (step.right._tag === 'Parsed') {
        this.chunk = step.right.rest
        return step.right.value
      }
      this.chunk = EMPTY
    }
    if (!this.finished) return undefined
    const end = endMultipart(this.state)
    if (end._tag === 'Left') throw new MultipartReadError(end.left)
    return END
  }

  // The next read of the body, to hand to `accept`.
  read(): Promise<IteratorResult<Uint8Array>> {
    return this.source.next()
  }

  accept(read: IteratorResult<Uint8Array>): void {
    if (read.done === true) this.finished = true
    else this.chunk = read.value
  }

  async next(): Promise<MultipartEvent> {
    for (;;) {
      const event = this.step()
      if (event !== undefined) return event
      this.accept(await this.read())
    }
  }

  // The epilogue: read to the end, so the connection can carry another request.
  async drain(): Promise<void> {
    while (!this.finished && (await this.source.next()).done !== true);
    this.finished = true
  }
}

const DONE: IteratorResult<Uint8Array> = Object.freeze({ done: true, value: undefined })

// A file's bytes as the handler reads them: each `next()` is the data the bytes in hand hold,
// or else one read of the body and one `then` on it, whose callback answers with a plain value
// (a promise returned from it would cost two more turns of the microtask queue). An async
// generator over the pump cost three or four promises more per read.
class FileData implements AsyncIterator<Uint8Array> {
  ended = false

  constructor(private readonly pump: EventPump) {}

  next(): Promise<IteratorResult<Uint8Array>> {
    try {
      const result = this.take()
      if (result !== undefined) return Promise.resolve(result)
    } catch (e) {
      return Promise.reject(e)
    }
    return this.pump.read().then(this.afterRead)
  }

  // Throws `MultipartReadError`, which rejects the `then` it runs in.
  private readonly afterRead = (read: IteratorResult<Uint8Array>): IteratorResult<Uint8Array> | Promise<IteratorResult<Uint8Array>> => {
    this.pump.accept(read)
    return this.take() ?? this.next()
  }

  // What the bytes in hand give, `undefined` when a read is needed first.
  private take(): IteratorResult<Uint8Array> | undefined {
    if (this.ended) return DONE
    const event = this.pump.step()
    if (event === undefined) return undefined
    if (event._tag === 'PartData') return { done: false, value: event.data }
    this.ended = true
    return DONE
  }
}

/**
 * The parts of `req`'s multipart body, in order. Throws `MultipartReadError` for a body that
 * is not `multipart/form-data` (415), a bad or missing boundary (400), a part past `limits`
 * (413) or a malformed or cut body (400).
 *
 * @example
 * const upload = httpRoute('POST', '/upload', { body: 'stream', maxBody: 2 ** 31 }, async (req) => {
 *   const names: string[] = []
 *   for await (const part of readMultipart(req)) {
 *     if (part.kind === 'file') for await (const chunk of part.data) void chunk // write it somewhere
 *     names.push(part.name)
 *   }
 *   return { names }
 * })
 */
export async function* readMultipart(req: MultipartSource, limits: Partial<MultipartLimits> = {}): AsyncGenerator<FormPart, void, undefined> {
  const boundary = boundaryOf(req.headerMap.get('content-type'))
  if (boundary._tag === 'Left') throw new MultipartReadError(boundary.left)
  const start = startMultipart(boundary.right, { ...DEFAULT_MULTIPART_LIMITS, ...limits })
  if (start._tag === 'Left') throw new MultipartReadError(start.left)
  const pump = new EventPump(start.right, req.body[Symbol.asyncIterator]())
  for (;;) {
    const event = await pump.next()
    if (event._tag === 'End') return pump.drain()
    if (event._tag !== 'PartStart') continue
    const { name, filename, contentType, headers } = event.part
    if (filename === undefined) {
      const parts: Uint8Array[] = []
      let size = 0
      for (let e = await pump.next(); e._tag === 'PartData'; e = await pump.next()) {
        parts.push(e.data.slice())
        size += e.data.length
      }
      yield { kind: 'field', name, value: utf8.decode(joinBytes(parts, size)), contentType, headers }
      continue
    }
    const reader = new FileData(pump)
    let taken = false
    const take = (): FileData => {
      if (taken) throw new TypeError(`the file of part "${name}" is being read already (read it once)`)
      taken = true
      return reader
    }
    const file: FormFile = {
      kind: 'file',
      name,
      filename,
      contentType,
      headers,
      data: { [Symbol.asyncIterator]: take },
      bytes: async () => {
        const data = take()
        const parts: Uint8Array[] = []
        let size = 0
        for (let step = await data.next(); step.done !== true; step = await data.next()) {
          parts.push(step.value.slice())
          size += step.value.length
        }
        return joinBytes(parts, size)
      },
    }
    yield file
    // What the handler did not read of the file is skipped.
    if (!reader.ended) while ((await pump.next())._tag === 'PartData');
  }
}

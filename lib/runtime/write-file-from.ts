/**
 * `writeFileFrom`: writes a stream of bytes (an upload's `part.data`, a streamed `req.body`)
 * to a new file as it arrives: the chunks read are gathered until `highWaterMark` bytes (or the
 * end), then written in one `writev` while the source waits, so never more than `highWaterMark`
 * bytes (plus the read that crossed it) are held and a slow disk pauses the socket through the
 * body stream (the socket's kernel buffer keeps receiving meanwhile). One write per
 * `highWaterMark` rather than two half-size writes overlapping the reads: each write is a trip
 * to libuv's disk thread and back, and those trips, not the bytes, were a third of an upload's
 * server CPU (bench/RESULTS.md "Session 14: where an upload's CPU goes"). A write that
 * fails, a source that throws, a size past `maxBytes` or an aborted `signal` stops the
 * reading, closes and removes the partial file, and answers a tagged error (errors as values).
 *
 * Part of the shared runtime layer (lib/runtime/): `node:fs` (which Bun and Deno run too), fp-ts
 * and the core's types only; never an adapter.
 */
import * as E from 'fp-ts/lib/Either.js'
import { type FileHandle, open, unlink } from 'node:fs/promises'

/** Bytes held at most (written or waiting to be) before the source is read again, by default. */
export const WRITE_HIGH_WATER = 128 * 1024

/** How `writeFileFrom` may write. */
export interface WriteFileOptions {
  /**
   * Bytes gathered before each write, and held at most (the source is not read while they are
   * written); one read more may cross it. Default `WRITE_HIGH_WATER` (128 KiB).
   */
  readonly highWaterMark?: number
  /** The most bytes the file may have: one more stops the upload (`TooLarge`, 413). */
  readonly maxBytes?: number
  /** Aborts the upload (`Aborted`): pass the request's `req.signal`. */
  readonly signal?: AbortSignal
  /** Replace a file already at `path`; default false (the file must be new: `EEXIST`). */
  readonly overwrite?: boolean
}

/** A file written to its end. */
export interface WrittenFile {
  readonly path: string
  /** Bytes written. */
  readonly size: number
}

/**
 * Why a file was not written; the partial file is gone. `status` is the answer it suggests:
 * the source's own (a `MultipartReadError`'s or `BodyStreamError`'s; else 400), 413 past
 * `maxBytes`, 503 when aborted, 500 when the file system refused (`code` from it: `EEXIST`,
 * `ENOSPC`, ...).
 */
export type WriteFileError =
  | { readonly _tag: 'SourceFailed'; readonly status: number; readonly reason: 'source_failed'; readonly cause: unknown }
  | { readonly _tag: 'TooLarge'; readonly status: 413; readonly reason: 'file_too_large'; readonly limit: number }
  | { readonly _tag: 'Aborted'; readonly status: 503; readonly reason: 'aborted' }
  | { readonly _tag: 'FileFailed'; readonly status: 500; readonly reason: 'file_failed'; readonly syscall: 'open' | 'write' | 'close'; readonly code: string | undefined; readonly cause: unknown }

// The status a source's error carries (MultipartReadError.status, BodyStreamError.error.status).
const statusOf = (cause: unknown): number => {
  if (typeof cause !== 'object' || cause === null) return 400
  const own = (cause as { readonly status?: unknown }).status
  if (typeof own === 'number') return own
  const inner = (cause as { readonly error?: { readonly status?: unknown } }).error?.status
  return typeof inner === 'number' ? inner : 400
}

const fileFailed = (syscall: 'open' | 'write' | 'close', cause: unknown): WriteFileError => {
  const code = (cause as { readonly code?: unknown } | null)?.code
  return { _tag: 'FileFailed', status: 500, reason: 'file_failed', syscall, code: typeof code === 'string' ? code : undefined, cause }
}

// Writes every byte of `chunks` (`total` of them) at the file's position, again from where a
// short write stopped.
const writeAll = async (file: FileHandle, chunks: Uint8Array[], total: number): Promise<void> => {
  let rest = chunks
  let left = total
  while (left > 0) {
    const { bytesWritten } = rest.length === 1 ? await file.write(rest[0] as Uint8Array) : await file.writev(rest)
    left -= bytesWritten
    if (left <= 0) return
    if (bytesWritten <= 0) throw Object.assign(new Error('write wrote nothing'), { code: 'EIO' })
    let skip = bytesWritten
    let i = 0
    while (skip >= (rest[i] as Uint8Array).length) skip -= (rest[i++] as Uint8Array).length
    rest = [(rest[i] as Uint8Array).subarray(skip), ...rest.slice(i + 1)]
  }
}

const ABORTED = Symbol('aborted')

/**
 * Writes `source` to a new file at `path`, reading ahead of the disk by at most
 * `highWaterMark` bytes. Answers the path and size written, or why not (the partial file then
 * removed). The chunks are held until written: pass a source that does not reuse its buffers
 * (a `FormFile`'s `data`, a `BodyStream`: neither does).
 *
 * @example
 * httpRoute('POST', '/photos', { body: 'stream', maxBody: 2 ** 30 }, async (req) => {
 *   for await (const part of readMultipart(req)) {
 *     if (part.kind !== 'file') continue
 *     const saved = await writeFileFrom(part.data, join(dir, randomUUID()), { maxBytes: 2 ** 29, signal: req.signal })
 *     if (E.isLeft(saved)) return errorResponse(saved.left.status, saved.left.reason)
 *   }
 *   return { ok: true }
 * })
 */
export const writeFileFrom = async (
  source: AsyncIterable<Uint8Array>,
  path: string,
  options: WriteFileOptions = {},
): Promise<E.Either<WriteFileError, WrittenFile>> => {
  const highWater = Math.max(1, options.highWaterMark ?? WRITE_HIGH_WATER)
  // A write starts once this much is gathered (or at the end), and the source waits for it: one
  // trip to the disk thread per `highWater` bytes. Starting at half and reading on meanwhile
  // held as much but took twice the trips (and twice the thread wake-ups and context switches).
  const writeFrom = highWater
  const maxBytes = options.maxBytes ?? Number.POSITIVE_INFINITY
  const { signal } = options
  // Taken first: a source read already throws its TypeError here, before any file exists.
  const reader = source[Symbol.asyncIterator]()
  const release = (): void => void reader.return?.()?.catch(() => undefined)
  if (signal?.aborted === true) {
    release()
    return E.left({ _tag: 'Aborted', status: 503, reason: 'aborted' })
  }
  let file: FileHandle
  try {
    file = await open(path, options.overwrite === true ? 'w' : 'wx')
  } catch (e) {
    release()
    return E.left(fileFailed('open', e))
  }

  let gathered: Uint8Array[] = []
  let gatheredBytes = 0
  let writing: Promise<void> | undefined
  let writingBytes = 0
  let writeError: { readonly cause: unknown } | undefined
  const startWrite = (): void => {
    const chunks = gathered
    writingBytes = gatheredBytes
    gathered = []
    gatheredBytes = 0
    writing = writeAll(file, chunks, writingBytes).then(
      () => {
        writing = undefined
        writingBytes = 0
        if (gatheredBytes >= writeFrom) startWrite()
      },
      (cause: unknown) => {
        writing = undefined
        writingBytes = 0
        writeError = { cause }
      },
    )
  }

  // The read in progress, answered early by an abort. Not a `Promise.race` with one promise
  // that settles on abort: each race would leave a reaction on that promise holding its
  // answer, so every chunk read would stay reachable until the abort (the whole upload).
  let wake: ((step: typeof ABORTED) => void) | undefined
  const onAbort = signal === undefined ? undefined : (): void => wake?.(ABORTED)
  if (onAbort !== undefined) signal?.addEventListener('abort', onAbort, { once: true })
  const read = (): Promise<IteratorResult<Uint8Array> | typeof ABORTED> => {
    if (signal === undefined) return reader.next()
    if (signal.aborted) return Promise.resolve(ABORTED)
    return new Promise((resolve, reject) => {
      wake = resolve
      reader.next().then(resolve, reject)
    })
  }

  let size = 0
  let failure: WriteFileError | undefined
  try {
    for (;;) {
      if (writeError !== undefined) break
      if (gatheredBytes + writingBytes >= highWater) {
        if (writing === undefined) startWrite()
        await writing
        continue
      }
      let step: IteratorResult<Uint8Array> | typeof ABORTED
      try {
        step = await read()
      } catch (cause) {
        failure = { _tag: 'SourceFailed', status: statusOf(cause), reason: 'source_failed', cause }
        break
      }
      wake = undefined
      if (step === ABORTED) {
        failure = { _tag: 'Aborted', status: 503, reason: 'aborted' }
        break
      }
      if (step.done === true) break
      const chunk = step.value
      if (chunk.length === 0) continue
      size += chunk.length
      if (size > maxBytes) {
        failure = { _tag: 'TooLarge', status: 413, reason: 'file_too_large', limit: maxBytes }
        break
      }
      gathered.push(chunk)
      gatheredBytes += chunk.length
      if (writing === undefined && gatheredBytes >= writeFrom) startWrite()
    }
    // The rest gathered, once the write before it is done.
    while (failure === undefined && writeError === undefined && (writing !== undefined || gatheredBytes > 0)) {
      if (writing === undefined) startWrite()
      await writing
    }
  } finally {
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort)
  }
  if (failure === undefined && writeError !== undefined) failure = fileFailed('write', writeError.cause)
  if (failure !== undefined) {
    // Stop the source (a body stream then stops reading its socket), let a write in flight end, remove the file.
    release()
    gathered = []
    while (writing !== undefined) await writing
    await file.close().catch(() => undefined)
    await unlink(path).catch(() => undefined)
    return E.left(failure)
  }
  try {
    await file.close()
  } catch (e) {
    await unlink(path).catch(() => undefined)
    return E.left(fileFailed('close', e))
  }
  return E.right({ path, size })
}

/**
 * What the streaming bench's upload servers (`stream-twinport.ts`, `stream-fastify.ts`) do with
 * a file, by the request's query (`sinkModeOf`):
 * - no query (`disk`, since Session 14): each server writes the file its own idiomatic way
 *   (fastify `pipeline(part.file, createWriteStream(path))` as @fastify/multipart's README shows;
 *   twinport `writeFileFrom`) to `diskPath(UPLOAD_DIR)`, keeps it and answers its path and size;
 *   the harness hashes it from disk after the timed window, then deletes it. No hashing on the
 *   server: the issue asks for uploads "to disk".
 * - `?sink=hash` (the shared sink of sessions 10–13, `sinkFile` here, kept so their figures stay
 *   reproducible): every chunk hashed (sha256) as it arrives and written with one awaited
 *   `write` per chunk, then the file deleted; `?sink=hash&keep=1` keeps it and answers its path.
 * - `?sink=count`: the file's bytes counted only.
 * Node only (node:crypto, node:fs); imports nothing of twinport.
 */
import { createHash, randomBytes } from 'node:crypto'
import { open, unlink } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What the sink answers for one file (DESIGN §8's `files[]` entry, plus `path` when kept). */
export interface SunkFile {
  readonly size: number
  readonly sha256: string
  readonly path?: string
}

/**
 * What a server does with a file: `disk`, written the server's own way and kept (the harness
 * checks and deletes it); through the shared hashing sink, then deleted (`delete`) or kept
 * (`keep`); or its bytes counted only.
 */
export type SinkMode = 'disk' | 'delete' | 'keep' | 'count'

/** The mode a request's query asks for: `?sink=count`, `?sink=hash` (`&keep=1`), else `disk`. */
export const sinkModeOf = (query: Readonly<Record<string, unknown>>): SinkMode =>
  query['sink'] === 'count' ? 'count' : query['sink'] === 'hash' ? (query['keep'] === '1' ? 'keep' : 'delete') : 'disk'

/** A fresh file name under `dir` (the servers never use the client's filename). */
export const diskPath = (dir: string): string => join(dir, `upload-${process.pid}-${randomBytes(8).toString('hex')}`)

/** The directory uploads go to: `UPLOAD_DIR` from the environment (the harness makes and removes it). */
export const uploadDir = (): string => process.env['UPLOAD_DIR'] ?? tmpdir()

/**
 * Hashes and writes `data` to a fresh file under `dir`; deletes it unless `mode` is `keep`.
 * With `count`, reads `data` to its end and answers its size alone (`sha256` empty).
 *
 * @example
 * const { size, sha256 } = await sinkFile(uploadDir(), part.file, 'delete')
 */
export const sinkFile = async (dir: string, data: AsyncIterable<Uint8Array>, mode: Exclude<SinkMode, 'disk'>): Promise<SunkFile> => {
  if (mode === 'count') {
    let counted = 0
    for await (const chunk of data) counted += chunk.length
    return { size: counted, sha256: '' }
  }
  const keep = mode === 'keep'
  const path = diskPath(dir)
  const hash = createHash('sha256')
  const file = await open(path, 'wx')
  let size = 0
  try {
    for await (const chunk of data) {
      hash.update(chunk)
      size += chunk.length
      await file.write(chunk)
    }
  } catch (e) {
    await file.close()
    await unlink(path).catch(() => undefined)
    throw e
  }
  await file.close()
  if (!keep) await unlink(path)
  return keep ? { size, sha256: hash.digest('hex'), path } : { size, sha256: hash.digest('hex') }
}

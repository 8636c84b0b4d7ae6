/**
 * The upload sink the streaming bench's upload servers share (`stream-twinport.ts`,
 * `stream-fastify.ts`), so each writes a file the same way: every chunk hashed (sha256) as it
 * arrives and written to a new file in `UPLOAD_DIR` (one awaited `write` per chunk, so nothing
 * is held past its write, whoever owns the chunk's memory), then the file is deleted, or kept
 * and its path answered when the harness asks (`?keep=1`: it checks the bytes on disk).
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

/** What the sink does with a file: write it and delete it, write and keep it, or count its bytes only. */
export type SinkMode = 'delete' | 'keep' | 'count'

/** The mode a request's query asks for: `?keep=1`, `?sink=count`, else `delete`. */
export const sinkModeOf = (query: Readonly<Record<string, unknown>>): SinkMode =>
  query['sink'] === 'count' ? 'count' : query['keep'] === '1' ? 'keep' : 'delete'

/** The directory uploads go to: `UPLOAD_DIR` from the environment (the harness makes and removes it). */
export const uploadDir = (): string => process.env['UPLOAD_DIR'] ?? tmpdir()

/**
 * Hashes and writes `data` to a fresh file under `dir`; deletes it unless `mode` is `keep`.
 * With `count`, reads `data` to its end and answers its size alone (`sha256` empty).
 *
 * @example
 * const { size, sha256 } = await sinkFile(uploadDir(), part.file, 'delete')
 */
export const sinkFile = async (dir: string, data: AsyncIterable<Uint8Array>, mode: SinkMode): Promise<SunkFile> => {
  if (mode === 'count') {
    let counted = 0
    for await (const chunk of data) counted += chunk.length
    return { size: counted, sha256: '' }
  }
  const keep = mode === 'keep'
  const path = join(dir, `upload-${process.pid}-${randomBytes(8).toString('hex')}`)
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

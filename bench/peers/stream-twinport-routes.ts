/**
 * The routes of the streaming bench's twinport server (`stream-twinport.ts`), apart from the
 * server so a spec can call their handlers without one (DESIGN §8's contract):
 * - `GET /stream?chunks=N&size=S`: `stream()` of an async generator yielding N chunks of S
 *   bytes (0x61), length not announced (chunked). Unlike the echo example (one chunk per
 *   tick), the generator yields as fast as the engine pulls: the bench measures the engine.
 * - `POST /upload`: a route with `{ body: 'stream', maxBody: 2 GiB }`; the multipart body is
 *   split as it arrives (the core's `readMultipart`) and each file written to `UPLOAD_DIR` with
 *   `writeFileFrom`, kept, its path answered (`stream-sink.ts`: `?sink=hash` through the hashing
 *   sink of sessions 10–13, `&keep=1` to keep it; `?sink=count` counts only); answers
 *   `{"fields":{…},"files":[{"field","filename","size","sha256","path"?}]}`.
 * - `POST /upload-raw`: the same route kind without multipart: the whole body, framing and all,
 *   through the hashing sink (`?sink=count` counts it), to tell the body stream's cost from the
 *   parser's in a profile; answers `{"size","sha256"}`.
 */
import * as E from 'fp-ts/lib/Either.js'
import { errorResponse, httpRoute, json, readMultipart, routes, stream } from '../../lib/core/index.js'
import { writeFileFrom } from '../../lib/runtime/write-file-from.js'
import { diskPath, sinkFile, sinkModeOf, type SunkFile, uploadDir } from './stream-sink.js'

const MAX_CHUNKS = 1 << 20
const MAX_SIZE = 1 << 24

const countOf = (value: unknown, max: number, fallback: number): number => {
  const n = typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : fallback
  return Math.min(n, max)
}

async function* chunks(count: number, size: number): AsyncGenerator<Uint8Array> {
  // One buffer, yielded again and again: the source costs nothing per chunk.
  const chunk = new Uint8Array(size).fill(0x61)
  for (let i = 0; i < count; i++) yield chunk
}

interface FileEntry extends SunkFile {
  readonly field: string
  readonly filename: string
}

export const streamRoute = httpRoute('GET', '/stream', (req) =>
    stream(chunks(countOf(req.query['chunks'], MAX_CHUNKS, 16), countOf(req.query['size'], MAX_SIZE, 65536))),
  )

export const uploadRoute = httpRoute('POST', '/upload', { body: 'stream', maxBody: 2 ** 31 }, async (req) => {
    const mode = sinkModeOf(req.query)
    const fields: Record<string, string> = {}
    const files: FileEntry[] = []
    // A body that is no valid form throws MultipartReadError: the server answers its status.
    for await (const part of readMultipart(req)) {
      if (part.kind === 'field') fields[part.name] = part.value
      else if (mode === 'disk') {
        const saved = await writeFileFrom(part.data, diskPath(uploadDir()), { signal: req.signal })
        if (E.isLeft(saved)) return errorResponse(saved.left.status, saved.left.reason)
        files.push({ field: part.name, filename: part.filename, size: saved.right.size, sha256: '', path: saved.right.path })
      } else files.push({ field: part.name, filename: part.filename, ...(await sinkFile(uploadDir(), part.data, mode)) })
    }
    return json({ fields, files: files.map((f) => ({ ...f })) })
  })

export const rawUploadRoute = httpRoute('POST', '/upload-raw', { body: 'stream', maxBody: 2 ** 31 }, async (req) => {
  const mode = sinkModeOf(req.query)
  return json({ ...(await sinkFile(uploadDir(), req.body, mode === 'disk' ? 'delete' : mode)) })
})

export const streamRoutes = routes({ stream: streamRoute, upload: uploadRoute, uploadRaw: rawUploadRoute })


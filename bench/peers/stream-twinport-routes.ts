/**
 * The routes of the streaming bench's twinport server (`stream-twinport.ts`), apart from the
 * server so a spec can call their handlers without one (DESIGN §8's contract):
 * - `GET /stream?chunks=N&size=S`: `stream()` of an async generator yielding N chunks of S
 *   bytes (0x61), length not announced (chunked). Unlike the echo example (one chunk per
 *   tick), the generator yields as fast as the engine pulls: the bench measures the engine.
 * - `POST /upload`: a route with `{ body: 'stream', maxBody: 2 GiB }`; the multipart body is
 *   split as it arrives and each file hashed and written to `UPLOAD_DIR`, then deleted
 *   (`stream-sink.ts`; kept and its path answered with `?keep=1`, only counted with `?sink=count`); answers
 *   `{"fields":{…},"files":[{"field","filename","size","sha256"}]}`; the parts come from the
 *   core's `readMultipart`.
 * - `POST /upload-raw`: the same route kind without multipart: the whole body, framing and all,
 *   through the same sink (`?sink=count` counts it), to tell the body stream's cost from the
 *   parser's in a profile; answers `{"size","sha256"}`.
 */
import { httpRoute, json, readMultipart, routes, stream } from '../../lib/core/index.js'
import { sinkFile, sinkModeOf, type SunkFile, uploadDir } from './stream-sink.js'

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
      else files.push({ field: part.name, filename: part.filename, ...(await sinkFile(uploadDir(), part.data, mode)) })
    }
    return json({ fields, files: files.map((f) => ({ ...f })) })
  })

export const rawUploadRoute = httpRoute('POST', '/upload-raw', { body: 'stream', maxBody: 2 ** 31 }, async (req) =>
  json({ ...(await sinkFile(uploadDir(), req.body, sinkModeOf(req.query))) }),
)

export const streamRoutes = routes({ stream: streamRoute, upload: uploadRoute, uploadRaw: rawUploadRoute })


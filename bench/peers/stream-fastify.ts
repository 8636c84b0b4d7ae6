/**
 * Peer server of the streaming bench's uploads (`bench/streaming.ts`): fastify 5 with
 * `@fastify/multipart` (busboy) on `POST /upload`, reading the parts with `req.parts()` and
 * writing each file through the same sink as twinport's (`stream-sink.ts`: sha256 as the
 * bytes arrive, written to `UPLOAD_DIR`, then deleted; `?sink=count` counts only), answering the same JSON as DESIGN §8's
 * `/upload`. Limits raised to let a 1 GiB file through (the plugin's default `fileSize` is
 * fastify's 1 MiB `bodyLimit`); no logger. HOST/PORT/UPLOAD_DIR from the environment.
 */
import multipart from '@fastify/multipart'
import Fastify from 'fastify'
import { sinkFile, sinkModeOf, type SunkFile, uploadDir } from './stream-sink.js'
import { gcOnSignal } from './gc-on-signal.js'

gcOnSignal()

const DIR = uploadDir()
const app = Fastify({ logger: false })
await app.register(multipart, { limits: { fileSize: 2 ** 31, files: 100, fieldSize: 1024 * 1024 } })

interface FileEntry extends SunkFile {
  readonly field: string
  readonly filename: string
}

app.post('/upload', async (req) => {
  const mode = sinkModeOf(req.query as Record<string, unknown>)
  const fields: Record<string, string> = {}
  const files: FileEntry[] = []
  for await (const part of req.parts()) {
    if (part.type === 'file') files.push({ field: part.fieldname, filename: part.filename, ...(await sinkFile(DIR, part.file, mode)) })
    else fields[part.fieldname] = String(part.value)
  }
  return { fields, files }
})

const address = await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '0.0.0.0' })
console.log(`fastify + @fastify/multipart listening on ${address}`)

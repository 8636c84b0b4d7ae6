/**
 * Peer server of the streaming bench's uploads (`bench/streaming.ts`): fastify 5 with
 * `@fastify/multipart` (busboy) on `POST /upload`, reading the parts with `req.parts()` and
 * writing each file to `UPLOAD_DIR` as the plugin's README shows, `await pipeline(part.file,
 * fs.createWriteStream(path))`, kept and answered with its path and size (`stream-sink.ts`;
 * `?sink=hash` through the hashing sink of sessions 10–13 instead, `?sink=count` counts only),
 * answering the same JSON as DESIGN §8's `/upload`. Limits raised to let a 1 GiB file through (the plugin's default `fileSize` is
 * fastify's 1 MiB `bodyLimit`); no logger. HOST/PORT/UPLOAD_DIR from the environment.
 */
import multipart from '@fastify/multipart'
import Fastify from 'fastify'
import { createWriteStream } from 'node:fs'
import { pipeline } from 'node:stream/promises'
import { diskPath, sinkFile, sinkModeOf, type SunkFile, uploadDir } from './stream-sink.js'
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
    if (part.type !== 'file') fields[part.fieldname] = String(part.value)
    else if (mode === 'disk') {
      const path = diskPath(DIR)
      const out = createWriteStream(path)
      await pipeline(part.file, out)
      files.push({ field: part.fieldname, filename: part.filename, size: out.bytesWritten, sha256: '', path })
    } else files.push({ field: part.fieldname, filename: part.filename, ...(await sinkFile(DIR, part.file, mode)) })
  }
  return { fields, files }
})

const address = await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '0.0.0.0' })
console.log(`fastify + @fastify/multipart listening on ${address}`)

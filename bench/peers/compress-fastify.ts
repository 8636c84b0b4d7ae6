/**
 * fastify 5 with `@fastify/compress` answering `GET /json` with bench/peers/compress-json.ts's
 * 100 KiB document, at the same levels as the twinport peer (gzip 6, Brotli 4, threshold
 * 1 KiB); the plugin's other defaults (its synchronous path for buffered bodies included).
 * HOST and PORT from the environment.
 */
import fastifyCompress from '@fastify/compress'
import Fastify from 'fastify'
import { FASTIFY_COMPRESS_OPTIONS, JSON_BYTES } from './compress-json.js'

const body = Buffer.from(JSON_BYTES)
const app = Fastify({ logger: false })
await app.register(fastifyCompress, FASTIFY_COMPRESS_OPTIONS)
app.get('/json', (_req, reply) => {
  reply.type('application/json').send(body)
})
await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '127.0.0.1' })

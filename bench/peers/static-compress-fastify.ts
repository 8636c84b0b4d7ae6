/**
 * `@fastify/static` with `@fastify/compress` (gzip 6, Brotli 4, threshold 1 KiB: the levels of
 * bench/peers/compress-fastify.ts) serving STATIC_ROOT at `/static`: the peer of twinport's
 * `serveStatic` with the `compress` option (bench/peers/static-twinport.ts with COMPRESS=1) for
 * a compressible file compressed on the fly. A hand-run peer (bench/README.md, "Static files
 * and compression"). HOST and PORT from the environment.
 */
import fastifyCompress from '@fastify/compress'
import fastifyStatic from '@fastify/static'
import Fastify from 'fastify'
import { resolve } from 'node:path'
import { FASTIFY_COMPRESS_OPTIONS } from './compress-json.js'

const app = Fastify({ logger: false })
await app.register(fastifyCompress, FASTIFY_COMPRESS_OPTIONS)
await app.register(fastifyStatic, { root: resolve(process.env['STATIC_ROOT'] ?? '.'), prefix: '/static/' })
await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '127.0.0.1' })

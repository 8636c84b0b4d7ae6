/**
 * `@fastify/static` serving STATIC_ROOT at `/static` (bench/static-files.ts's Node peer), with
 * its defaults (ETag, Last-Modified, ranges, no compression), fastify 5 without a logger.
 * HOST and PORT from the environment.
 */
import fastifyStatic from '@fastify/static'
import Fastify from 'fastify'
import { resolve } from 'node:path'

const app = Fastify({ logger: false })
await app.register(fastifyStatic, { root: resolve(process.env['STATIC_ROOT'] ?? '.'), prefix: '/static/' })
await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '127.0.0.1' })

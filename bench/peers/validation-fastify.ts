/**
 * The validation bench's Fastify contender (bench/validation.ts): `POST /users` with its JSON
 * Schema on the body (Fastify's Ajv, compiled at start), no logger. HOST/PORT from the environment.
 */
import Fastify from 'fastify'
import { JSON_SCHEMA_USER } from '../validation/user-body.js'

const app = Fastify({ logger: false })

app.post<{ Body: { name: string } }>('/users', { schema: { body: JSON_SCHEMA_USER } }, async (req) => ({ ok: true, name: req.body.name }))

await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '127.0.0.1' })

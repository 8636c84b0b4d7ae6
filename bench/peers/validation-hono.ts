/**
 * The validation bench's Hono contender (bench/validation.ts): `POST /users` checked by
 * `@hono/zod-validator` (`zValidator('json', …)`, Zod 4) on `@hono/node-server`.
 * HOST/PORT from the environment.
 */
import { serve } from '@hono/node-server'
import { zValidator } from '@hono/zod-validator'
import { Hono } from 'hono'
import { ZodUser } from '../validation/user-body.js'

const app = new Hono().post('/users', zValidator('json', ZodUser), (c) => c.json({ ok: true, name: c.req.valid('json').name }))

serve({ fetch: app.fetch, port: Number(process.env['PORT'] ?? 6001), hostname: process.env['HOST'] ?? '127.0.0.1' })

/**
 * Peer server: fastify for the HTTP half of the DESIGN §4 echo contract
 * (`GET /hello` → `{"hello":"world"}`, `POST /echo` → the body as received and
 * its content type). No logger, default options otherwise. HOST/PORT from the
 * environment.
 */
import Fastify from 'fastify'

const app = Fastify({ logger: false, bodyLimit: 16 * 1024 * 1024 })

// Echo bytes as received: no JSON or text parsing of the body.
app.removeAllContentTypeParsers()
app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body))

app.get('/hello', async () => ({ hello: 'world' }))

app.post('/echo', async (req, reply) => {
  reply.header('content-type', req.headers['content-type'] ?? 'application/octet-stream')
  return req.body ?? Buffer.alloc(0)
})

const address = await app.listen({ port: Number(process.env['PORT'] ?? 6001), host: process.env['HOST'] ?? '0.0.0.0' })
console.log(`fastify listening on ${address}`)

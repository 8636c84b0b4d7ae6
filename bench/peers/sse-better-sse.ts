/**
 * Peer server for `bench/sse-broadcast.ts`: `better-sse` on `node:http`. `GET /events` opens a
 * session (its defaults: a `retry:` field, a keep-alive comment every 10 s, data serialized as
 * JSON) registered with one channel; `POST /bcast` broadcasts its body's text to the channel
 * (`channel.broadcast`, one event, the same text for every session) and answers 204 once it
 * is written. HOST/PORT from the environment. Imports node:http and better-sse only.
 */
import { createServer } from 'node:http'
import { createChannel, createSession } from 'better-sse'

const channel = createChannel()

const http = createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/events') {
    createSession(req, res).then(
      (session) => channel.register(session),
      () => res.destroy(),
    )
    return
  }
  if (req.method === 'POST' && req.url === '/bcast') {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => {
      channel.broadcast(Buffer.concat(parts).toString('utf8'))
      res.writeHead(204).end()
    })
    return
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not found')
})

http.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0')
process.once('SIGTERM', () => process.exit(0))

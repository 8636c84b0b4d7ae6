/**
 * Peer server of the streaming bench's download (`bench/streaming.ts`): `node:http` answering
 * `GET /stream?chunks=N&size=S` with `res.write` of one S-byte buffer (0x61, built once per
 * request) N times, waiting for `drain` whenever `write` returns false, as Node's docs say
 * to; chunked, as node:http frames a body of unknown length. HOST/PORT from the environment.
 */
import { createServer, type ServerResponse } from 'node:http'
import { streamAsk } from './stream-query.js'
import { gcOnSignal } from './gc-on-signal.js'

gcOnSignal()

// Resolves on 'drain' or 'close', whichever comes first, and leaves no listener behind.
const drained = (out: ServerResponse): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      out.off('drain', done)
      out.off('close', done)
      resolve()
    }
    out.on('drain', done)
    out.on('close', done)
  })

const send = async (res: ServerResponse, chunks: number, size: number): Promise<void> => {
  const chunk = Buffer.alloc(size, 0x61)
  res.writeHead(200, { 'content-type': 'application/octet-stream' })
  for (let i = 0; i < chunks && !res.destroyed; i++) {
    if (!res.write(chunk)) await drained(res)
  }
  res.end()
}

const server = createServer((req, res) => {
  const ask = req.method === 'GET' ? streamAsk(req.url ?? '') : undefined
  if (ask === undefined) {
    res.writeHead(404, { 'content-length': 0 })
    res.end()
    return
  }
  void send(res, ask.chunks, ask.size)
})

server.listen(Number(process.env['PORT'] ?? 6001), process.env['HOST'] ?? '0.0.0.0', () => {
  console.log(`node:http stream listening on ${JSON.stringify(server.address())}`)
})

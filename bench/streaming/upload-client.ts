/**
 * The streaming bench's upload client: one raw `node:net` connection POSTs a
 * `multipart/form-data` body (`multipart-body.ts`) with a `Content-Length`, the file's bytes
 * written from a generator of views of one pattern buffer, each write waiting for `drain`
 * when the socket's buffer is full: a 1 GiB upload holds no more than the socket's buffer.
 * Then it reads the answer to the end (`Connection: close`). Bounded by `timeoutMs`; a server
 * that answers early (a 413, a 501) stops the writing.
 */
import { connect, type Socket } from 'node:net'
import { performance } from 'node:perf_hooks'
import { multipartFrame, patternChunks } from './multipart-body.js'
import { parseResponseHead } from './response-head.js'

/** One upload to make. */
export interface UploadAsk {
  readonly port: number
  /** Path and query, e.g. `/upload?keep=1`. */
  readonly target: string
  readonly boundary: string
  /** The text field `client` carries this. */
  readonly client: string
  readonly size: number
  /** The file's bytes are this pattern repeated. */
  readonly pattern: Uint8Array
  readonly timeoutMs: number
}

/** What one upload got. */
export interface Upload {
  /** 0 when no answer came. */
  readonly status: number
  /** The answer's body as text (JSON from the contract's `/upload`). */
  readonly body: string
  /** From the connection's start to the answer's end. */
  readonly ms: number
  readonly error?: string
}

// Resolves once the socket takes more, or is gone.
const writable = (socket: Socket): Promise<void> =>
  new Promise((resolve) => {
    const done = (): void => {
      socket.off('drain', done)
      socket.off('close', done)
      resolve()
    }
    socket.on('drain', done)
    socket.on('close', done)
  })

// The body of a chunked answer, decoded leniently (small JSON answers only).
const dechunk = (bytes: Buffer): Buffer => {
  const out: Buffer[] = []
  let at = 0
  for (;;) {
    const eol = bytes.indexOf('\r\n', at)
    if (eol < 0) break
    const size = parseInt(bytes.subarray(at, eol).toString('latin1'), 16)
    if (!(size > 0)) break
    out.push(bytes.subarray(eol + 2, eol + 2 + size))
    at = eol + 2 + size + 2
  }
  return Buffer.concat(out)
}

/**
 * Uploads one file as `ask` says.
 *
 * @example const u = await upload({ port, target: '/upload', boundary: 'b', client: '1', size: 1 << 24, pattern, timeoutMs: 60_000 })
 */
export const upload = (ask: UploadAsk): Promise<Upload> =>
  new Promise((resolve) => {
    const t0 = performance.now()
    const frame = multipartFrame(ask.boundary, { field: 'client', value: ask.client }, { field: 'file', filename: `client-${ask.client}.bin`, size: ask.size })
    const received: Buffer[] = []
    let settled = false
    let writeError: string | undefined
    const finish = (error?: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const all = Buffer.concat(received)
      const head = parseResponseHead(all, all.length)
      const ms = performance.now() - t0
      if (head === undefined || head === 'invalid') {
        resolve({ status: 0, body: '', ms, error: error ?? writeError ?? (all.length === 0 ? 'no answer' : 'not an HTTP response') })
        return
      }
      const rest = all.subarray(head.headBytes)
      const body = (head.framing.kind === 'chunked' ? dechunk(rest) : rest).toString('utf8')
      resolve({ status: head.status, body, ms, ...(error === undefined ? {} : { error }) })
    }
    const socket = connect({ host: '127.0.0.1', port: ask.port, noDelay: true })
    const timer = setTimeout(() => finish(`no answer within ${ask.timeoutMs} ms`), ask.timeoutMs)
    socket.on('data', (c: Buffer) => received.push(c))
    socket.once('end', () => finish())
    socket.once('error', (e) => {
      // A server that answered early and closed: the answer may be in already.
      writeError = e.message
      if (received.length > 0) finish()
      else finish(e.message)
    })
    socket.once('connect', () => {
      void (async () => {
        const head = `POST ${ask.target} HTTP/1.1\r\nhost: 127.0.0.1:${ask.port}\r\nconnection: close\r\n` +
          `content-type: ${frame.contentType}\r\ncontent-length: ${frame.length}\r\n\r\n`
        socket.write(head)
        if (!socket.write(frame.head)) await writable(socket)
        for (const chunk of patternChunks(ask.pattern, ask.size)) {
          if (settled || socket.destroyed || received.length > 0) return
          if (!socket.write(chunk)) await writable(socket)
        }
        if (!settled && !socket.destroyed) socket.write(frame.tail)
      })()
    })
  })

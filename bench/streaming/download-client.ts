/**
 * The streaming bench's download client: one raw `node:net` connection sends
 * `GET <target>` (`Connection: close`) and counts the body bytes as they come
 * (`chunked-counter.ts`), reading into one buffer reused for every read (`onread`: no Buffer
 * and no stream event per read), so the client costs the least it can on its CPU. The body is
 * never looked at. Bounded by `timeoutMs`.
 */
import { connect } from 'node:net'
import { performance } from 'node:perf_hooks'
import { ChunkedCounter } from './chunked-counter.js'
import { parseResponseHead, type ResponseHead } from './response-head.js'

/** What one download got. */
export interface Download {
  /** 0 when no head came. */
  readonly status: number
  /** The answer's Content-Type, to tell what came instead of the stream. */
  readonly contentType: string
  readonly bodyBytes: number
  /** The body ended as its framing says (last chunk, length reached). */
  readonly complete: boolean
  /** From the connection's start to the body's end (or to the failure). */
  readonly ms: number
  readonly error?: string
}

// One read buffer for every download: reads land here and are counted, never kept.
const READ_BUFFER = Buffer.allocUnsafe(1 << 20)
const HEAD_MAX = 65536

/**
 * Downloads `target` from 127.0.0.1:`port`.
 *
 * @example const d = await download(6001, '/stream?chunks=4096&size=65536', 60_000)
 */
export const download = (port: number, target: string, timeoutMs: number): Promise<Download> =>
  new Promise((resolve) => {
    const t0 = performance.now()
    const headBuf = Buffer.allocUnsafe(HEAD_MAX)
    let headLen = 0
    let head: ResponseHead | undefined
    let counter: ChunkedCounter | undefined
    let settled = false
    const finish = (error?: string): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      socket.destroy()
      const ms = performance.now() - t0
      const complete = counter?.state === 'complete' && error === undefined
      resolve({ status: head?.status ?? 0, contentType: head?.headers.get('content-type') ?? '', bodyBytes: counter?.bodyBytes ?? 0, complete, ms, ...(error === undefined ? {} : { error }) })
    }
    const onBytes = (bytes: Buffer, from: number, to: number): void => {
      if (counter === undefined) return
      const state = counter.feed(bytes, from, to)
      if (state === 'complete') finish()
      else if (state === 'invalid') finish('badly framed body')
    }
    const socket = connect({
      host: '127.0.0.1',
      port,
      noDelay: true,
      onread: {
        buffer: READ_BUFFER,
        callback: (n: number, buf: Uint8Array): boolean => {
          if (settled) return false
          if (head === undefined) {
            const take = Math.min(n, HEAD_MAX - headLen)
            headBuf.set(buf.subarray(0, take), headLen)
            headLen += take
            const parsed = parseResponseHead(headBuf, headLen)
            if (parsed === 'invalid') {
              finish('not an HTTP response')
              return false
            }
            if (parsed === undefined) return true
            head = parsed
            counter = new ChunkedCounter(parsed.framing)
            const bodyInHead = headLen - parsed.headBytes
            if (counter.state === 'complete' && bodyInHead === 0) finish()
            else onBytes(headBuf, parsed.headBytes, headLen)
            // Bytes of this read past what the head buffer took.
            if (!settled && take < n) onBytes(READ_BUFFER, take, n)
            return true
          }
          onBytes(READ_BUFFER, 0, n)
          return true
        },
      },
    })
    const timer = setTimeout(() => finish(`no complete body within ${timeoutMs} ms`), timeoutMs)
    socket.once('connect', () => socket.write(`GET ${target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nconnection: close\r\n\r\n`))
    socket.once('error', (e) => finish(e.message))
    socket.once('end', () => {
      if (counter?.end() === 'complete') finish()
      else finish(head === undefined ? 'connection closed before a response head' : 'connection closed before the body ended')
    })
  })

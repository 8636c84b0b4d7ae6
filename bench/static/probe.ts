/**
 * `probeWorkload`: one request of a workload, checked before it is measured, so a contender
 * that answers the wrong thing fast gives no figure: a file's status and exact length; a
 * range's 206, `Content-Range` and 64 KiB; a compressed answer's `Content-Encoding` and its
 * bytes decompressing to the document. Resolves with the body size on the wire, or the reason.
 */
import { request } from 'node:http'
import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import { HUGE, LARGE, RANGE_SIZE, SMALL, type StaticWorkload } from './workloads.js'

interface Answer {
  readonly status: number
  readonly headers: Readonly<Record<string, string | string[] | undefined>>
  readonly body: Buffer
}

const get = (port: number, path: string, headers: Readonly<Record<string, string>>): Promise<Answer> =>
  new Promise((resolve, reject) => {
    // A fresh connection each time (Node 20's global agent keeps them alive, and the server may have
    // closed an idle one during the previous measured window).
    const req = request({ host: '127.0.0.1', port, path, headers, timeout: 10_000, agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (c: Buffer) => chunks.push(c))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')))
    req.on('error', reject)
    req.end()
  })

/** The body size on the wire, or what was wrong. */
export const probeWorkload = async (port: number, workload: StaticWorkload, json: Uint8Array): Promise<number | string> => {
  try {
    if (workload.ranges) {
      const first = (HUGE.size / 2) | 0
      const a = await get(port, workload.path, { Range: `bytes=${first}-${first + RANGE_SIZE - 1}` })
      if (a.status !== 206) return `range: status ${a.status}, not 206`
      if (a.headers['content-range'] !== `bytes ${first}-${first + RANGE_SIZE - 1}/${HUGE.size}`) return `range: Content-Range ${String(a.headers['content-range'])}`
      return a.body.length === RANGE_SIZE ? RANGE_SIZE : `range: ${a.body.length} bytes, not ${RANGE_SIZE}`
    }
    const a = await get(port, workload.path, workload.headers)
    if (a.status !== 200) return `status ${a.status}`
    if (workload.kind === 'files') {
      const size = workload.path.endsWith(SMALL.name) ? SMALL.size : LARGE.size
      return a.body.length === size ? size : `${a.body.length} bytes, not ${size}`
    }
    const coding = workload.headers['Accept-Encoding']
    if (a.headers['content-encoding'] !== coding) return `Content-Encoding ${String(a.headers['content-encoding'])}, not ${String(coding)}`
    const plain = coding === 'br' ? brotliDecompressSync(a.body) : gunzipSync(a.body)
    return Buffer.compare(plain, Buffer.from(json)) === 0 ? a.body.length : 'the body does not decompress to the document'
  } catch (error) {
    return `probe failed: ${error instanceof Error ? error.message : String(error)}`
  }
}

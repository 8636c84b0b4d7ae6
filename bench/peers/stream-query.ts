/**
 * `chunks` and `size` of a `/stream?chunks=N&size=S` request target, for the streaming
 * bench's Node peers (`stream-raw-net.ts`, `stream-node-http.ts`): the same defaults and caps
 * as `stream-twinport.ts` (16 chunks of 64 KiB; at most 2^20 chunks of 16 MiB). Pure.
 */

/** The chunk count and size a `/stream` target asks for. */
export interface StreamAsk {
  readonly chunks: number
  readonly size: number
}

const numberOf = (query: URLSearchParams, name: string, max: number, fallback: number): number => {
  const value = query.get(name)
  return Math.min(value !== null && /^\d{1,9}$/.test(value) ? Number(value) : fallback, max)
}

/**
 * What `target` (path and query) asks `/stream` for; `undefined` for another path.
 *
 * @example streamAsk('/stream?chunks=4&size=10') // { chunks: 4, size: 10 }
 */
export const streamAsk = (target: string): StreamAsk | undefined => {
  const q = target.indexOf('?')
  if ((q < 0 ? target : target.slice(0, q)) !== '/stream') return undefined
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1))
  return { chunks: numberOf(query, 'chunks', 1 << 20, 16), size: numberOf(query, 'size', 1 << 24, 65536) }
}

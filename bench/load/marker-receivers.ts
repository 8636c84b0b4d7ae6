/**
 * Lean receivers for the broadcast benchmarks of `bench/sse-broadcast.ts`: raw `node:net`
 * sockets that send one request (a WebSocket upgrade, or an event-stream `GET`) and then only
 * count one marker byte (`~`) in what they read, whatever the framing around it (WebSocket
 * frames, chunked SSE events, JSON-quoted data): a broadcast whose text ends with the marker
 * has reached a receiver once its count goes up by one. Reads land in one buffer shared by
 * every socket (`onread`: no Buffer and no `data` event per read), so 10,000 of them cost
 * the client little. Node only (node:net); no twinport import.
 */
import { connect, type Socket } from 'node:net'

/** The byte that ends every broadcast text (and appears nowhere else in the streams). */
export const MARKER = 0x7e

/** The receivers of one run, and the count every one of them must reach. */
export interface ReceiverSet {
  /** Opens `count` more receivers, `batch` at a time; rejects if one is refused or not answered within `timeoutMs`. */
  readonly open: (count: number, batch?: number, timeoutMs?: number) => Promise<void>
  /** How many are open. */
  readonly size: () => number
  /**
   * Resolves once every receiver has seen `target` markers in all (the n-th broadcast of a
   * run: `target` n), or rejects after `timeoutMs` with how many had.
   */
  readonly reach: (target: number, timeoutMs: number) => Promise<void>
  readonly close: () => void
}

const SHARED = Buffer.allocUnsafe(64 * 1024)

interface Receiver {
  readonly socket: Socket
  seen: number
}

/**
 * Receivers that each send `request` to 127.0.0.1:`port` and expect an answer starting with
 * `HTTP/1.1 <status>` (101 for an upgrade, 200 for an event stream).
 */
export const markerReceivers = (port: number, request: string, status: number): ReceiverSet => {
  const all: Receiver[] = []
  const expected = Buffer.from(`HTTP/1.1 ${status}`, 'latin1')
  let target = Number.POSITIVE_INFINITY
  let reached = 0
  let whenAll: (() => void) | undefined

  const openOne = (timeoutMs: number): Promise<void> =>
    new Promise((resolve, reject) => {
      let headed = false
      const timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs)
      const r: Receiver = {
        seen: 0,
        socket: connect({
          host: '127.0.0.1',
          port,
          noDelay: true,
          onread: {
            buffer: SHARED,
            callback: (n: number, buf: Uint8Array): boolean => {
              if (!headed) {
                headed = true
                clearTimeout(timer)
                if (n < expected.length || !expected.equals(buf.subarray(0, expected.length))) {
                  reject(new Error(`answered ${Buffer.from(buf.subarray(0, Math.min(n, 40))).toString('latin1').split('\r\n')[0] ?? ''}`))
                  return false
                }
                all.push(r)
                resolve()
              }
              let c = 0
              for (let i = 0; i < n; i++) if (buf[i] === MARKER) c++
              if (c > 0) {
                r.seen += c
                // Counted once, when this read takes it to the target.
                if (r.seen >= target && r.seen - c < target && ++reached === all.length) whenAll?.()
              }
              return true
            },
          },
        }),
      }
      r.socket.once('error', (e) => {
        clearTimeout(timer)
        reject(e)
      })
      r.socket.once('connect', () => r.socket.write(request))
    })

  return {
    open: async (count, batch = 200, timeoutMs = 30_000) => {
      for (let i = 0; i < count; i += batch) {
        await Promise.all(Array.from({ length: Math.min(batch, count - i) }, () => openOne(timeoutMs)))
      }
    },
    size: () => all.length,
    reach: (next, timeoutMs) =>
      new Promise((resolve, reject) => {
        reached = all.filter((r) => r.seen >= next).length
        target = next
        if (reached === all.length) return resolve()
        const timer = setTimeout(() => reject(new Error(`${reached} of ${all.length} receivers within ${timeoutMs} ms`)), timeoutMs)
        whenAll = () => {
          clearTimeout(timer)
          whenAll = undefined
          resolve()
        }
      }),
    close: () => {
      for (const r of all) r.socket.destroy()
      all.length = 0
    },
  }
}

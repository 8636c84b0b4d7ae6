/**
 * A Server-Sent Events client for the specs: Node's `http.get` (no agent) reading the stream
 * with the core's `readSseEvents`, keeping every event, the raw text, the head, and the
 * socket (to pause it, or to cut it without a FIN).
 */
import { get, type IncomingHttpHeaders } from 'node:http'
import type { Socket } from 'node:net'
import { type ReadSseEvent, readSseEvents, SSE_READER_START, type SseReader } from '../../lib/core/sse/read-sse-events.js'
import { eventually } from './server.js'

export interface SseClient {
  readonly status: number
  readonly headers: IncomingHttpHeaders
  readonly socket: Socket
  /** Every event read so far, in order. */
  readonly events: ReadSseEvent[]
  /** The body's text so far (comments included). */
  text(): string
  /** The last event id and retry read. */
  reader(): SseReader
  /** Waits until `count` events have been read (within `ms`), and answers them all. */
  until(count: number, ms?: number): Promise<readonly ReadSseEvent[]>
  /** Whether the server ended the stream. */
  ended(): boolean
  close(): void
}

/** Opens `path` as an event stream (`Accept: text/event-stream` unless `headers` says otherwise). */
export const openSse = (port: number, path: string, headers: Record<string, string> = {}): Promise<SseClient> =>
  new Promise((resolve, reject) => {
    const req = get({ host: '127.0.0.1', port, path, agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      const events: ReadSseEvent[] = []
      let all = ''
      let rest = ''
      let reader: SseReader = SSE_READER_START
      let ended = false
      res.setEncoding('utf8')
      res.on('data', (piece: string) => {
        all += piece
        const read = readSseEvents(reader, rest + piece)
        events.push(...read.events)
        reader = read.reader
        rest = read.rest
      })
      const end = (): void => void (ended = true)
      res.on('end', end)
      res.on('close', end)
      res.on('error', end)
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        socket: res.socket,
        events,
        text: () => all,
        reader: () => reader,
        until: async (count, ms = 3000) => {
          await eventually(() => events.length >= count, ms, `${count} events (have ${events.length}: ${JSON.stringify(events.map((e) => e.data))})`)
          return events
        },
        ended: () => ended,
        close: () => req.destroy(),
      })
    })
    req.on('error', reject)
  })

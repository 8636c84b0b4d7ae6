/**
 * The one JSON line the WebSocket load client prints at the end (`RESULT {...}`),
 * shared by the client and the harness. Types and a parser; pure.
 */

/** What a load-client run measured. Times in milliseconds, CPU in ms too. */
export interface ClientResult {
  readonly mode: 'echo' | 'rate' | 'bcast' | 'idle'
  /** false when the run could not do what it was asked (see `error`). */
  readonly ok: boolean
  readonly error?: string
  /** connections that failed to open or closed early. */
  readonly failures: number
  /** length of the measured window. */
  readonly ms: number
  /** messages received in the measured window (echo, rate) or receipts (bcast). */
  readonly messages: number
  /** server CPU (utime + stime) over the measured window, read from /proc. */
  readonly serverCpuMs: number
  /** this client's own CPU over the measured window. */
  readonly clientCpuMs: number
  /** rate mode: round-trip latency percentiles of the measured window. */
  readonly latency?: { readonly p50: number; readonly p99: number; readonly max: number; readonly samples: number }
  /** bcast mode: time from the send to the last receipt, one entry per broadcast. */
  readonly broadcasts?: readonly number[]
  /** idle mode: server RSS with `base` connections and with all of them. */
  readonly memory?: { readonly base: number; readonly full: number; readonly rssBase: number; readonly rssFull: number }
  /** bytes on the wire per message in the measured window: from the server (`down`) and to it (`up`, echo only). */
  readonly wire?: { readonly down: number; readonly up?: number }
  /** with `--offer`: connections whose handshake agreed on permessage-deflate. */
  readonly agreed?: number
}

/** The prefix of the result line on the client's stdout. */
export const RESULT_PREFIX = 'RESULT '

/** The last result line in a client's stdout, or `undefined`. */
export const parseClientResult = (stdout: string): ClientResult | undefined => {
  const line = stdout.split('\n').reverse().find((l) => l.startsWith(RESULT_PREFIX))
  if (line === undefined) return undefined
  try {
    return JSON.parse(line.slice(RESULT_PREFIX.length)) as ClientResult
  } catch {
    return undefined
  }
}

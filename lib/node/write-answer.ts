/**
 * `writeAnswer`: the engine's answer to a request a host's `node:http` server received, written
 * on its `ServerResponse`: the status and headers of `responseParts`, the body whole with
 * `end`, or a streamed body through the engine's `ResponsePump` (the next piece pulled only
 * once the response took the last: Node's `drain`; the source cancelled when the client goes
 * away). Node frames the body itself (chunked when no length is known). Part of `attach`
 * (lib/node/); imports the core, the engine and `node:*`.
 */
import type { ServerResponse } from 'node:http'
import { responseParts } from '../core/http/response-parts.js'
import type { HttpRequest, Response } from '../core/http/types.js'
import type { EmbeddedHttp } from '../engine/http/embedded-http.js'
import { pullOf } from '../core/http/pull-source.js'
import { ResponsePump } from '../engine/http/response-pump.js'

// Header lines to Node's record (repeated names as arrays, e.g. Set-Cookie).
const headerRecord = (lines: readonly (readonly [string, string])[], close: boolean): Record<string, string | string[]> => {
  const record: Record<string, string | string[]> = {}
  for (const [name, value] of lines) {
    const seen = record[name]
    record[name] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]
  }
  if (close) record['Connection'] = 'close'
  return record
}

/**
 * Writes `answer` to `res`; `close` asks the host to close the connection after it (an error
 * read from the request's body, or the server draining).
 *
 * @example
 * writeAnswer(res, await embedded.respond(request, owner), request, embedded, false)
 */
export const writeAnswer = (res: ServerResponse, answer: Response, request: HttpRequest, embedded: EmbeddedHttp, close: boolean): void => {
  if (res.destroyed || res.headersSent) return
  const parts = responseParts(answer, request.method === 'HEAD')
  if (parts.unserializable !== undefined) embedded.onUnserializable(request, parts.unserializable)
  if (parts.unsent !== undefined) pullOf(parts.unsent.source).cancel(new Error('no body is sent for this response'))
  res.writeHead(parts.status, headerRecord(parts.headers, close || embedded.draining()))
  const body = parts.body
  if (body === undefined || body instanceof Uint8Array) {
    res.end(body)
    return
  }
  // An event stream's head goes now (the page's EventSource opens on it), not with its first event.
  if (answer.contentType.startsWith('text/event-stream')) res.flushHeaders()
  const pump = new ResponsePump(
    body.source,
    body.length === undefined ? 'close' : 'length',
    body.length,
    {
      write: (bytes) => void res.write(bytes),
      buffered: () => res.writableLength,
      cork: () => res.cork(),
      uncork: () => res.uncork(),
    },
    Date.now,
    (outcome) => {
      res.off('drain', writable)
      res.off('close', gone)
      if (outcome._tag === 'Sent') return void res.end()
      if (outcome._tag === 'Failed') embedded.onStreamFailed(request, outcome.error)
      // Cut mid-body: the client must not take a short body for a whole one.
      res.destroy()
    },
  )
  const writable = (): void => pump.writable()
  const gone = (): void => pump.cancel('the client went away')
  res.on('drain', writable)
  res.on('close', gone)
  pump.start()
}

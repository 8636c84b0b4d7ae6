/**
 * `webResponseOf`: the engine's answer as a web-standard `Response` (what a fetch handler
 * returns): a JSON or text answer through the app's `TextResponder` (its text, and its headers
 * as the host takes them cheapest), else the status and headers of `responseParts`, the body as bytes, or a streamed body
 * (`stream(...)`) as a `ReadableStream` read through the engine's `ResponsePump`: the next
 * piece is pulled from the source only when the stream's queue (64 KiB) has room, a declared
 * length is held to, and the source is cancelled when the consumer (the host's socket, a
 * client going away) cancels the stream. Part of `toFetch`.
 *
 * Portable: no node:* imports, no Buffer, no process.
 */
import { internalError } from '../core/route/settle-answer.js'
import { responseParts } from '../core/http/response-parts.js'
import type { StreamBody } from '../core/http/stream-body.js'
import type { Header, HttpRequest, Response as Answer } from '../core/http/types.js'
import type { EmbeddedHttp } from '../engine/http/embedded-http.js'
import { pullOf } from '../core/http/pull-source.js'
import { HIGH_WATER, type PumpOutcome, ResponsePump } from '../engine/http/response-pump.js'
import type { TextResponder } from './text-responder.js'

/** What the exchange hears of its streamed answer: the consumer cancelled it (the client went away). */
export type OnCancelled = (reason: string) => void

// The source of `body` as a web stream, pulled by the pump as the consumer reads.
const webStreamOf = (body: StreamBody, request: HttpRequest, embedded: EmbeddedHttp, now: () => number, cancelled: OnCancelled): ReadableStream<Uint8Array> => {
  let pump: ResponsePump | undefined
  return new ReadableStream<Uint8Array>(
    {
      start: (controller) => {
        const done = (outcome: PumpOutcome): void => {
          try {
            if (outcome._tag === 'Sent') controller.close()
            else if (outcome._tag === 'Failed') {
              embedded.onStreamFailed(request, outcome.error)
              // Errored, not closed: the host cuts the body, so a short body is not taken for a whole one.
              controller.error(outcome.error)
            }
          } catch {
            // The consumer cancelled the stream already: nothing is left to tell it.
          }
        }
        const sink = {
          write: (bytes: Uint8Array) => controller.enqueue(bytes),
          // What the consumer has not read yet: the queue's bytes (its size is HIGH_WATER less what it still wants).
          buffered: () => HIGH_WATER - (controller.desiredSize ?? 0),
          cork: () => undefined,
          uncork: () => undefined,
        }
        pump = new ResponsePump(body.source, body.length === undefined ? 'close' : 'length', body.length, sink, now, done)
        pump.start()
      },
      pull: () => pump?.writable(),
      cancel: () => {
        pump?.cancel('the client went away')
        cancelled('the client went away')
      },
    },
    { highWaterMark: HIGH_WATER, size: (chunk) => chunk.byteLength },
  )
}

// Statuses a web Response may not carry a body with (Fetch: "null body status").
const nullBody = (status: number): boolean => status === 204 || status === 205 || status === 304

// The headers as the host takes them cheapest: a plain record (no Headers object built entry by
// entry), or the list of pairs when a name repeats (Set-Cookie twice) or cannot be a record's key.
const headersInitOf = (list: readonly Header[]): HeadersInit => {
  const record: Record<string, string> = {}
  for (const [name, value] of list) {
    if (name === '__proto__' || Object.hasOwn(record, name)) return list.map(([n, v]): [string, string] => [n, v])
    record[name] = value
  }
  return record
}

/** What `webResponseOf` needs of its app: the dispatch, the clock, and the text responder of its host. */
export interface ResponseContext {
  readonly embedded: EmbeddedHttp
  readonly now: () => number
  readonly text: TextResponder
}

/**
 * `answer` to `request` as a web `Response`. A 1xx status cannot be a fetch handler's final
 * answer: it is logged and answered 500.
 *
 * @example
 * const app = { embedded, now: Date.now, text: textResponder(hostKindOf()) }
 * const response = webResponseOf(await embedded.respond(request, owner), request, app, () => undefined)
 */
export const webResponseOf = (answer: Answer, request: HttpRequest, app: ResponseContext, cancelled: OnCancelled): Response => {
  const { embedded, now } = app
  const text = app.text(answer, request.method === 'HEAD')
  if (text !== undefined) return text
  const parts = responseParts(answer, request.method === 'HEAD')
  if (parts.unserializable !== undefined) embedded.onUnserializable(request, parts.unserializable)
  if (parts.unsent !== undefined) pullOf(parts.unsent.source).cancel(new Error('no body is sent for this response'))
  if (parts.status < 200) {
    embedded.onStreamFailed(request, new RangeError(`status ${parts.status} cannot be the final answer of a fetch handler`))
    return webResponseOf(internalError(), request, app, cancelled)
  }
  const headers = headersInitOf(parts.headers)
  const body = parts.body
  if (body === undefined || nullBody(parts.status)) {
    if (body !== undefined && !(body instanceof Uint8Array)) pullOf(body.source).cancel(new Error('no body is sent for this response'))
    return new Response(null, { status: parts.status, headers })
  }
  if (body instanceof Uint8Array) return new Response(body as Uint8Array<ArrayBuffer>, { status: parts.status, headers })
  return new Response(webStreamOf(body, request, embedded, now, cancelled), { status: parts.status, headers })
}

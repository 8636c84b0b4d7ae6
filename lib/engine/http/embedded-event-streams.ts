/**
 * `embeddedEventStreams`: an `eventStream` answer under a host that owns the HTTP response
 * (`attach`, `toFetch`) made a full client of the registry, as `runServer` makes its
 * connection one (sse-shared.ts): a client id, the origin check and the upgrade guards of its
 * path (`SseShared.admitStream`, whose admissions become the client's data), then its
 * namespace and rooms, session and replay, connect handlers, the heartbeat, server requests and
 * posts. Its bytes go to a `PullOutlet` (pull-outlet.ts) that the host's streamed answer pulls
 * (`ServerResponse.write` with backpressure under `attach`, a `ReadableStream` under
 * `toFetch`), unframed: the host frames the body. The host's cancellation (the client gone:
 * `res.on('close')`, the stream cancelled, `request.signal`) destroys the outlet, and the
 * engine's disconnect path runs as for a socket's close.
 *
 * Portable: no node:* imports, no Buffer.
 */
import type { ExchangeOwner } from '../../core/http/body-stream.js'
import { errorResponse } from '../../core/http/response.js'
import { StreamBody } from '../../core/http/stream-body.js'
import type { HttpRequest, Response } from '../../core/http/types.js'
import { isEventStreamBody } from '../../core/sse/event-stream.js'
import type { ClientContext } from '../connection/client-context.js'
import type { SseShared } from '../connection/sse-shared.js'
import type { Platform } from '../platform.js'

export interface EmbeddedEventStreamsDeps<S> {
  readonly platform: Platform<S>
  /** Registers a client whose exchange the host owns (`Lifecycle.adopt`); `undefined`: refused. */
  readonly adopt: (socket: S, remoteAddress: string | undefined) => ClientContext<S> | undefined
  /** The client's "socket" is gone (`Lifecycle.closed`). */
  readonly closed: (client: ClientContext<S>) => void
  readonly streams: Pick<SseShared<S>, 'admitStream' | 'open'>
}

/** Opens an admitted event stream, answering what the host sends: the stream's head and a body it pulls, or the refusal. */
export type OpenEventStream = (request: HttpRequest, answer: Response, owner: ExchangeOwner) => Response | Promise<Response>

// A platform without outlets (none of the hosts twinport ships) holds no stream here.
const NO_EVENT_STREAMS: Response = errorResponse(501, 'event streams are not served by this host')
const FULL: Response = errorResponse(503, 'unavailable')

/**
 * @example
 * const open = embeddedEventStreams({ platform: withPullOutlets(fetchPlatform), adopt, closed, streams })
 * const answer = await open(request, eventStream({ rooms: ['news'] }), owner) // 200, its body pulled by the host
 */
export const embeddedEventStreams = <S>(deps: EmbeddedEventStreamsDeps<S>): OpenEventStream => {
  const { platform, adopt, closed, streams } = deps
  const makeOutlet = platform.pullOutlet
  if (makeOutlet === undefined) return () => NO_EVENT_STREAMS
  const { io } = platform
  return (request, answer, owner) => {
    let client: ClientContext<S> | undefined
    const outlet = makeOutlet({
      writable: () => client?.receiver.writable?.(),
      closed: () => {
        if (client !== undefined) closed(client)
      },
    })
    client = adopt(outlet.socket, owner.remoteAddress?.())
    if (client === undefined) return FULL
    const adopted = client
    const begin = (decided: Response): Response => {
      // Refused (or HEAD, or another status): no client is held; the answer goes as it is.
      if (!isEventStreamBody(decided.body) || decided.status !== 200 || request.method === 'HEAD') {
        io.destroy(outlet.socket)
        return decided
      }
      streams.open(adopted, request, decided.body.options, 'close', undefined)
      // The host's abort (its request's signal, the response closed early) is the client gone.
      const signal = owner.signalOf(0)
      if (signal.aborted) io.destroy(outlet.socket)
      else signal.addEventListener('abort', () => io.destroy(outlet.socket), { once: true })
      return { ...decided, body: new StreamBody(outlet.source, undefined) }
    }
    const decided = streams.admitStream(request, answer, adopted.id)
    return decided instanceof Promise ? decided.then(begin) : begin(decided)
  }
}

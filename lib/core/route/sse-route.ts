/**
 * `sseRoute`: a `GET` route whose requests become Server-Sent Events clients of the server
 * (docs/decisions.md "Server-Sent Events"). The HTTP middleware runs on its request like any
 * other (authentication, logging); a request whose `Accept` refuses `text/event-stream` gets
 * 406. Pure and portable: no node:* imports.
 */
import { errorResponse } from '../http/response.js'
import type { Request } from '../http/request.js'
import { acceptsEventStream } from '../sse/accepts-event-stream.js'
import { eventStream, type EventStreamOptions } from '../sse/event-stream.js'
import { eventPost } from '../sse/event-post.js'
import { httpRoute } from './http-route.js'
import type { PathParams } from './path-params.js'
import type { HttpRoute } from './route.js'

/**
 * An event-stream route on `path`; `options` (or a function of the request giving them) says
 * the namespace and rooms its clients join and the `retry:` they are told.
 *
 * @example
 * const feed = sseRoute('/events', { rooms: ['news'], retry: 2000 })
 * const byRoom = sseRoute('/rooms/{room}/events', (req) => ({ rooms: [req.params.room] }))
 */
export const sseRoute = <Path extends string>(
  path: Path,
  options: EventStreamOptions | ((req: Request<PathParams<Path>>) => EventStreamOptions) = {},
): HttpRoute<'GET', Path> =>
  httpRoute('GET', path, (req) => {
    if (!acceptsEventStream(req.headers)) return errorResponse(406, 'this route answers text/event-stream only')
    return eventStream(typeof options === 'function' ? options(req) : options)
  })

/**
 * The `POST` beside an event stream: what its clients send the server (envelopes, acks
 * expected), for the session named by `X-Twinport-Session`, dispatched as WebSocket messages
 * are, the answers coming back on the stream. `routes(sseRoute(p), ssePostRoute(p))` gives a
 * client both directions without WebSocket (the fallback of `twinport/client`).
 *
 * @example
 * const table = routes(sseRoute('/events'), ssePostRoute('/events'), socketOn('ping', () => 'pong'))
 */
export const ssePostRoute = <Path extends string>(path: Path): HttpRoute<'POST', Path> => httpRoute('POST', path, (req) => eventPost(req.http))

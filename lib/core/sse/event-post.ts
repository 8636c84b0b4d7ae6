/**
 * `eventPost(request)`: the answer to a `POST` that carries what an event-stream client sends
 * the server (docs/protocol.md, "Server-Sent Events: posting"): one envelope, or a batch of
 * them separated by RS, as text, for the session named by the `X-Twinport-Session` header. Like
 * `eventStream` it is a value the engine recognises: it hands the text to the connection that
 * holds the session, which dispatches it as a WebSocket connection dispatches a message, and
 * answers `202`. A post without the header, or whose body is not UTF-8, is 400 here.
 *
 * The header is the request-forgery guard: a cross-site page cannot send a custom header
 * without a CORS preflight, and cannot know the session id (128 random bits, sent only on the
 * session's own event stream). The engine also holds the post's `Origin` to the upgrade's
 * allowed origins, and refuses a post a browser marks `Sec-Fetch-Site: cross-site` unless its
 * origin is listed by name. Pure and portable: no node:* imports.
 */
import { headerValue } from '../http/header-value.js'
import { errorResponse } from '../http/response.js'
import { StreamBody } from '../http/stream-body.js'
import type { HttpRequest, Response } from '../http/types.js'

/** The header naming the session a post belongs to. */
export const SESSION_HEADER = 'X-Twinport-Session'

// A session id as the server makes them.
const SID = /^[A-Za-z0-9_-]{1,64}$/

const utf8 = new TextDecoder('utf-8', { fatal: true })

// Nothing: a post's answer has no body.
async function* nothing(): AsyncGenerator<Uint8Array> {}

/**
 * The body of an `eventPost` answer: the session and the text posted to it. A `StreamBody`
 * with an empty source (as `EventStreamBody`), so that code that knows only streamed bodies
 * answers an empty body; the engine recognises it first.
 */
export class EventPostBody extends StreamBody {
  constructor(
    readonly sid: string,
    readonly text: string,
    /** The request's `Origin`, when it had one (checked against the server's allowed origins). */
    readonly origin: string | undefined,
    /** The browser said the post comes from another site (`Sec-Fetch-Site: cross-site`). */
    readonly crossSite = false,
  ) {
    super(nothing(), 0)
  }
}

/**
 * Whether a body is an {@link EventPostBody}.
 *
 * @example
 * isEventPost(text('x').body) // false
 */
export const isEventPost = (body: unknown): body is EventPostBody => body instanceof EventPostBody

/**
 * The answer that posts `request`'s body to its session; 400 without a well-formed session
 * header or with a body that is not UTF-8.
 *
 * @example
 * eventPost(request).status // 202 once the engine delivered it; 400 here without X-Twinport-Session
 */
export const eventPost = (request: HttpRequest): Response => {
  const sid = headerValue(request.headers, SESSION_HEADER)
  if (sid === undefined || !SID.test(sid)) return errorResponse(400, `${SESSION_HEADER} must name the session`)
  let text: string
  try {
    text = utf8.decode(request.body)
  } catch {
    return errorResponse(400, 'the body is not UTF-8')
  }
  return { _tag: 'Response', status: 202, headers: [], contentType: '', body: new EventPostBody(sid, text, headerValue(request.headers, 'origin'), headerValue(request.headers, 'sec-fetch-site') === 'cross-site') }
}

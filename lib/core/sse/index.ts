/**
 * Server-Sent Events (WHATWG HTML §9.2), pure: the event value, its text (`encodeSseEvent`,
 * comments, `retry:`), a reader of the stream's text (`readSseEvents`), the wire bytes of a
 * text (`sseWire`), and the answer that makes a connection an event-stream client
 * (`eventStream`). Pure and portable: no node:* imports.
 */
export { EVENT_STREAM_TYPE, isSseToken, type SseEvent } from './sse-event.js'
export { encodeSseComment, encodeSseEvent, encodeSseRetry } from './encode-sse-event.js'
export { type ReadSseEvent, readSseEvents, SSE_READER_START, type SseRead, type SseReader } from './read-sse-events.js'
export { type SseFraming, sseWire } from './sse-wire.js'
export { EventStreamBody, type EventStreamOptions, eventStream, isEventStreamBody } from './event-stream.js'
export { acceptsEventStream } from './accepts-event-stream.js'
export { readSessionCursor, type SessionCursor, sessionCursorId } from './session-cursor.js'
export { EventPostBody, eventPost, isEventPost, SESSION_HEADER } from './event-post.js'

/**
 * `SseEvent`: one message of a `text/event-stream` (WHATWG HTML, "Server-sent events",
 * §9.2.6 "Interpreting an event stream"), as a value. Pure and portable: no node:* imports.
 */

/** One server-sent event: its data, and the optional type, id and reconnection time. */
export interface SseEvent {
  /** The `data` buffer: any text; line breaks (CRLF, CR, LF) become `data:` lines (read back as LF). */
  readonly data: string
  /** The event type (`message` when absent); one line, no CR or LF. */
  readonly event?: string
  /** The last-event-ID the browser keeps and sends back as `Last-Event-ID`; one line, no CR, LF or NUL. */
  readonly id?: string
  /** The reconnection time in milliseconds (a whole number). */
  readonly retry?: number
}

/** The `Content-Type` of an event stream: always UTF-8 (WHATWG §9.2.6: "must be encoded as UTF-8"). */
export const EVENT_STREAM_TYPE = 'text/event-stream; charset=utf-8'

/**
 * Whether `value` may be an event type or id: no CR, LF or NUL (a field value ends at a line
 * break, and an id holding NUL is ignored by the reader).
 *
 * @example
 * isSseToken('chat') // true
 * isSseToken('a\nb') // false
 */
export const isSseToken = (value: string): boolean => !/[\r\n\0]/.test(value)

/**
 * `encodeSseEvent` and `encodeSseComment`: an event, or a comment, as the text of a
 * `text/event-stream` (WHATWG HTML §9.2.6). Every field line is `name: value` and LF-ended;
 * an event ends with an empty line. Fields the reader would misread (an `event` or `id` with
 * a line break or NUL, a `retry` that is not a whole number) are left out rather than sent
 * broken. Pure and portable: no node:* imports.
 *
 *   stream  = [ bom ] *event
 *   event   = *( comment / field ) end-of-line
 *   field   = 1*name-char [ colon [ space ] *any-char ] end-of-line
 */
import { isSseToken, type SseEvent } from './sse-event.js'

// CRLF, lone CR and lone LF all end a line for the reader.
const LINE_BREAK = /\r\n|\r|\n/

/**
 * The text of one event: `event:`, `id:`, `retry:`, then one `data:` line per line of `data`,
 * then the empty line that dispatches it.
 *
 * @example
 * encodeSseEvent({ data: 'hello\nworld', id: '7' }) // 'id: 7\ndata: hello\ndata: world\n\n'
 */
export const encodeSseEvent = (event: SseEvent): string => {
  let text = ''
  if (event.event !== undefined && event.event !== '' && isSseToken(event.event)) text += `event: ${event.event}\n`
  if (event.id !== undefined && isSseToken(event.id)) text += `id: ${event.id}\n`
  if (event.retry !== undefined && Number.isSafeInteger(event.retry) && event.retry >= 0) text += `retry: ${event.retry}\n`
  const data = event.data
  if (!data.includes('\n') && !data.includes('\r')) return `${text}data: ${data}\n\n`
  for (const line of data.split(LINE_BREAK)) text += `data: ${line}\n`
  return `${text}\n`
}

/**
 * A comment: ignored by the reader, it keeps the connection and the proxies between busy (a
 * heartbeat). Line breaks in `text` start further comment lines.
 *
 * @example
 * encodeSseComment('')   // ':\n\n'
 * encodeSseComment('hi') // ': hi\n\n'
 */
export const encodeSseComment = (text: string): string =>
  text === '' ? ':\n\n' : `${text.split(LINE_BREAK).map((line) => `: ${line}\n`).join('')}\n`

/**
 * A `retry:` field alone: tells the browser how long to wait before it reconnects (no event
 * is dispatched: WHATWG §9.2.6, an event with an empty data buffer is dropped).
 *
 * @example
 * encodeSseRetry(2000) // 'retry: 2000\n\n'
 */
export const encodeSseRetry = (ms: number): string => (Number.isSafeInteger(ms) && ms >= 0 ? `retry: ${ms}\n\n` : '')

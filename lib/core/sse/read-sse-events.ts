/**
 * `readSseEvents`: the events complete in a piece of an event stream's text, read as the
 * WHATWG HTML processing model reads them (§9.2.6 "Interpreting an event stream"), and the
 * text left for the next piece. What a client without `EventSource` (the fallback of
 * `twinport/client`, a test) uses; never throws. Pure and portable: no node:* imports.
 *
 * The reader's state between pieces is a value (`SseReader`): the last event id, which
 * persists from one event to the next as the specification says.
 */

/** What carries over from one piece to the next. */
export interface SseReader {
  /** The last event ID buffer (sent back as `Last-Event-ID`). */
  readonly lastEventId: string
  /** The reconnection time last announced by `retry:`, if any. */
  readonly retry: number | undefined
}

/** A dispatched event: its type (`message` by default), data and the last event id at the time. */
export interface ReadSseEvent {
  readonly event: string
  readonly data: string
  readonly lastEventId: string
}

/** The events read, the reader's next state, and the text of an event not complete yet. */
export interface SseRead {
  readonly events: readonly ReadSseEvent[]
  readonly reader: SseReader
  readonly rest: string
}

/** A reader at the start of a stream. */
export const SSE_READER_START: SseReader = Object.freeze({ lastEventId: '', retry: undefined })

/**
 * Reads the complete events of `text` (the previous `rest` and the new piece, joined).
 * A lone CR at the very end is kept: an LF may follow in the next piece.
 *
 * @example
 * const read = readSseEvents(SSE_READER_START, 'id: 1\ndata: a\ndata: b\n\ndata: c')
 * read.events // [{ event: 'message', data: 'a\nb', lastEventId: '1' }]
 * read.rest   // 'data: c'
 */
export const readSseEvents = (reader: SseReader, text: string): SseRead => {
  const events: ReadSseEvent[] = []
  // The state as of the last complete event (what `reader` becomes), and as read since.
  let committed = reader
  let lastEventId = reader.lastEventId
  let retry = reader.retry
  let type = ''
  let data = ''
  let hasData = false
  // Where the event being read began: everything before it is consumed.
  let eventStart = 0
  let at = 0
  // WHATWG: a leading U+FEFF of the stream is ignored (on a stream's first piece: a reader at its start).
  if (reader === SSE_READER_START && text.charCodeAt(0) === 0xfeff) at = eventStart = 1
  for (;;) {
    let end = at
    while (end < text.length && text.charCodeAt(end) !== 0x0a && text.charCodeAt(end) !== 0x0d) end++
    if (end === text.length) break // an incomplete line
    if (text.charCodeAt(end) === 0x0d && end + 1 === text.length) break // CR at the end: an LF may follow
    const next = text.charCodeAt(end) === 0x0d && text.charCodeAt(end + 1) === 0x0a ? end + 2 : end + 1
    const line = text.slice(at, end)
    at = next
    if (line === '') {
      // Dispatch: the last event ID buffer becomes the source's; an empty data buffer dispatches nothing.
      if (hasData) events.push({ event: type === '' ? 'message' : type, data: data.slice(0, -1), lastEventId })
      committed = lastEventId === committed.lastEventId && retry === committed.retry ? committed : { lastEventId, retry }
      type = ''
      data = ''
      hasData = false
      eventStart = at
      continue
    }
    if (line.charCodeAt(0) === 0x3a) continue // a comment
    const colon = line.indexOf(':')
    const name = colon < 0 ? line : line.slice(0, colon)
    let value = colon < 0 ? '' : line.slice(colon + 1)
    if (value.charCodeAt(0) === 0x20) value = value.slice(1)
    if (name === 'data') {
      data += `${value}\n`
      hasData = true
    } else if (name === 'event') type = value
    else if (name === 'id') {
      if (!value.includes('\0')) lastEventId = value
    } else if (name === 'retry' && /^\d+$/.test(value)) retry = Number(value)
  }
  // The fields of an event not complete yet are read again with it, from `rest`.
  return { events, reader: committed, rest: text.slice(eventStart) }
}

/**
 * Harness `sse`: the server-sent events reader (lib/core/sse, the HTML event-stream
 * grammar). `readSseEvents` on any text gives events, a reader state and the rest, never a
 * throw; the rest is a suffix of what it was given; read in two pieces (the first piece's rest
 * and reader carried into the second) the stream gives the same events and state as whole;
 * an event written by `encodeSseEvent` reads back as itself (line breaks as LF, the type
 * `message` when none is given).
 */
import { encodeSseEvent } from '../../lib/core/sse/encode-sse-event.js'
import { readSseEvents, SSE_READER_START } from '../../lib/core/sse/read-sse-events.js'
import { isSseToken } from '../../lib/core/sse/sse-event.js'
import { expect, plainBytes, same, utf8 } from '../support/contract.js'

/** The check the fuzzer and the corpus replay run on one input. */
export const check = (data: Uint8Array): void => {
  const text = utf8(data)
  const whole = readSseEvents(SSE_READER_START, text)
  expect(text.endsWith(whole.rest), 'the rest is a suffix of the input')
  const k = Math.min(text.length, (data[0] ?? 0) % (text.length + 1))
  const first = readSseEvents(SSE_READER_START, text.slice(0, k))
  const second = readSseEvents(first.reader, first.rest + text.slice(k))
  same({ events: [...first.events, ...second.events], reader: second.reader, rest: second.rest }, whole, 'two pieces vs whole')

  // The input's own text as an event's data, type and id.
  const [name = '', id = ''] = text.split('\0')
  const event = { data: text, ...(isSseToken(name) && name !== '' ? { event: name } : {}), ...(isSseToken(id) ? { id } : {}) }
  const back = readSseEvents(SSE_READER_START, encodeSseEvent(event))
  same(back.events, [{ event: event.event ?? 'message', data: text.replace(/\r\n|\r/g, '\n'), lastEventId: event.id ?? '' }], 'read(encode(event))')
  same(back.rest, '', 'nothing left after an encoded event')
}

/** jazzer.js's entry point. */
export const fuzz = (data: Uint8Array): void => check(plainBytes(data))

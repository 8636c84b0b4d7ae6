import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as fc from 'fast-check'
import { encodeSseComment, encodeSseEvent } from '../../../lib/core/sse/encode-sse-event.js'
import { readSseEvents, SSE_READER_START, type ReadSseEvent, type SseReader } from '../../../lib/core/sse/read-sse-events.js'
import type { SseEvent } from '../../../lib/core/sse/sse-event.js'
import { sseWire } from '../../../lib/core/sse/sse-wire.js'

// Data without CR (a CRLF or CR is read back as LF, which the property below states apart).
const data = fc.string({ unit: fc.constantFrom('a', 'é', '😀', ' ', ':', '\n', 'x', '{', '"') , maxLength: 30 })
const token = fc.stringMatching(/^[A-Za-z0-9:_-]{1,10}$/)
const event: fc.Arbitrary<SseEvent> = fc.record({ data, event: token, id: token }, { requiredKeys: ['data'] })

// Reads a whole text in pieces cut at `cuts`.
const readInPieces = (text: string, cuts: readonly number[]): ReadSseEvent[] => {
  const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b)
  let reader: SseReader = SSE_READER_START
  let rest = ''
  let from = 0
  const out: ReadSseEvent[] = []
  for (const to of [...at, text.length]) {
    const read = readSseEvents(reader, rest + text.slice(from, to))
    out.push(...read.events)
    reader = read.reader
    rest = read.rest
    from = to
  }
  return out
}

test('sse.prop :: readSseEvents(encodeSseEvent(e)) is e, comments between ignored', () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 8 }), fc.boolean(), (events, comments) => {
      const text = events.map((e) => encodeSseEvent(e) + (comments ? encodeSseComment('beat') : '')).join('')
      const read = readSseEvents(SSE_READER_START, text)
      assert.is(read.rest, '')
      let lastId = ''
      assert.equal(
        read.events,
        events.map((e) => {
          if (e.id !== undefined) lastId = e.id
          return { event: e.event ?? 'message', data: e.data, lastEventId: lastId }
        }),
      )
    }),
  )
})

test('sse.prop :: any cut of a stream into pieces reads the same as the whole', () => {
  fc.assert(
    fc.property(fc.array(event, { maxLength: 6 }), fc.array(fc.nat(), { maxLength: 6 }), (events, cuts) => {
      const text = events.map(encodeSseEvent).join('')
      assert.equal(readInPieces(text, cuts), readSseEvents(SSE_READER_START, text).events)
    }),
  )
})

test('sse.prop :: CRLF and CR in data are read back as LF', () => {
  fc.assert(
    fc.property(fc.string({ unit: fc.constantFrom('a', '\r', '\n', '\r\n'), maxLength: 20 }), (text) => {
      const [read] = readSseEvents(SSE_READER_START, encodeSseEvent({ data: text })).events
      assert.is(read?.data, text.replace(/\r\n|\r/g, '\n'))
    }),
  )
})

test('sse.prop :: sseWire chunked is one chunk of the UTF-8; close is the UTF-8 alone', () => {
  fc.assert(
    fc.property(data, (text) => {
      const utf8 = new TextEncoder().encode(text)
      assert.equal(sseWire(text, 'close'), utf8)
      const chunk = sseWire(text, 'chunked')
      if (utf8.length === 0) return assert.is(chunk.length, 0)
      const head = `${utf8.length.toString(16)}\r\n`
      assert.is(new TextDecoder().decode(chunk.subarray(0, head.length)), head)
      assert.equal(chunk.subarray(head.length, head.length + utf8.length), utf8)
      assert.equal([...chunk.subarray(-2)], [13, 10])
    }),
  )
})

test('sse.prop :: readSseEvents never throws on any text', () => {
  fc.assert(fc.property(fc.string({ maxLength: 60 }), (text) => void readSseEvents(SSE_READER_START, text)))
})

test.run()

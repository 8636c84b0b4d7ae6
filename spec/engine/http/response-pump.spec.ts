/**
 * `ResponsePump`: a streamed answer's body pulled from its source only while the sink's
 * backlog is under `HIGH_WATER`, framed chunked, by length or until close, never started for
 * HEAD/204/304, and its source cancelled (iterator `return()`, stream `cancel()`) when stopped.
 * The sink is a recording double; the clock is a counter. Portable: runs in Bun and Deno too.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { LentSource } from '../../../lib/core/http/lent-source.js'
import type { StreamFraming } from '../../../lib/core/http/serialize-stream-head.js'
import type { BodySource } from '../../../lib/core/http/stream-body.js'
import { HIGH_WATER, type PumpOutcome, ResponsePump, type PumpSink } from '../../../lib/engine/http/response-pump.js'

const latin1 = (bytes: Uint8Array): string => String.fromCharCode(...bytes)
const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

interface Recording {
  readonly sink: PumpSink
  readonly writes: Uint8Array[]
  readonly corks: string[]
  backlog: number
  /** Whether writes add to the backlog (a socket that takes nothing). */
  growing: boolean
  text(): string
}

const recording = (): Recording => {
  const rec: Recording = {
    writes: [],
    corks: [],
    backlog: 0,
    growing: false,
    sink: {
      write: (bytes) => {
        rec.writes.push(bytes.slice())
        if (rec.growing) rec.backlog += bytes.length
      },
      buffered: () => rec.backlog,
      cork: () => void rec.corks.push('cork'),
      uncork: () => void rec.corks.push('uncork'),
    },
    text: () => rec.writes.map(latin1).join(''),
  }
  return rec
}

// A pump over `source`, with its outcome as a promise and a clock that moves when told.
const pumpOf = (source: BodySource, framing: StreamFraming, length?: number, rec = recording()) => {
  let now = 100
  let resolve: (o: PumpOutcome) => void = () => undefined
  const outcome = new Promise<PumpOutcome>((r) => (resolve = r))
  const outcomes: PumpOutcome[] = []
  const pump = new ResponsePump(source, framing, length, rec.sink, () => now, (o) => {
    outcomes.push(o)
    resolve(o)
  })
  return { pump, rec, outcome, outcomes, advance: (ms: number) => void (now += ms) }
}

async function* pieces(...items: (string | Uint8Array)[]): AsyncGenerator<string | Uint8Array> {
  for (const item of items) yield item
}

test('ResponsePump :: chunked: each piece as size line, data, CRLF in one cork, then the last chunk', async () => {
  const { pump, rec, outcome } = pumpOf(pieces('hello', new Uint8Array(17).fill(0x61), '', 'é'), 'chunked')
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  assert.is(rec.text(), `5\r\nhello\r\n11\r\n${'a'.repeat(17)}\r\n2\r\n\xc3\xa9\r\n0\r\n\r\n`)
  assert.equal(rec.corks, ['cork', 'uncork', 'cork', 'uncork', 'cork', 'uncork'], 'the empty piece is skipped')
  assert.ok(pump.ended)
})

test('ResponsePump :: chunked: pieces of one size share a size line, and a piece of another size gets its own', async () => {
  const a = new Uint8Array(16).fill(0x61)
  const { pump, rec, outcome } = pumpOf(pieces(a, a, 'bcd', a, new Uint8Array(4096).fill(0x62), a), 'chunked')
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  const x16 = `10\r\n${'a'.repeat(16)}\r\n`
  assert.is(rec.text(), `${x16}${x16}3\r\nbcd\r\n${x16}1000\r\n${'b'.repeat(4096)}\r\n${x16}0\r\n\r\n`)
})

test('ResponsePump :: length: the bytes as they are, and Sent when exactly the length came', async () => {
  const { pump, rec, outcome } = pumpOf(pieces('ab', 'cde'), 'length', 5)
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  assert.is(rec.text(), 'abcde')
  assert.equal(rec.corks, [])
})

test('ResponsePump :: length: fewer or more bytes than announced fail the answer', async () => {
  const short = pumpOf(pieces('ab'), 'length', 5)
  short.pump.start()
  const s = await short.outcome
  assert.is(s._tag, 'Failed')
  assert.match(String(s._tag === 'Failed' && s.error), /announced 5 bytes and gave 2/)
  let finished = false
  async function* long(): AsyncGenerator<string> {
    try {
      yield 'abc'
      yield 'def'
    } finally {
      finished = true
    }
  }
  const over = pumpOf(long(), 'length', 4)
  over.pump.start()
  const o = await over.outcome
  assert.is(o._tag, 'Failed')
  assert.match(String(o._tag === 'Failed' && o.error), /more than the 4 bytes/)
  assert.is(over.rec.text(), 'abc', 'nothing past the length is written')
  await tick()
  assert.ok(finished, 'the source is cancelled')
})

test('ResponsePump :: close: the bytes as they are, no last chunk', async () => {
  const { pump, rec, outcome } = pumpOf(pieces('ab', 'c'), 'close')
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  assert.is(rec.text(), 'abc')
})

test('ResponsePump :: none (HEAD, 204, 304): the source is never pulled, and is cancelled', async () => {
  let pulled = 0
  let cancelled = false
  const source = new ReadableStream<Uint8Array>(
    {
      pull: (c) => {
        pulled++
        c.enqueue(new Uint8Array([1]))
      },
      cancel: () => void (cancelled = true),
    },
    { highWaterMark: 0 },
  )
  const { pump, rec, outcomes } = pumpOf(source, 'none')
  pump.start()
  assert.equal(outcomes, [{ _tag: 'Sent' }], 'done at once')
  await tick()
  assert.is(pulled, 0)
  assert.ok(cancelled)
  assert.equal(rec.writes, [])
  let started = false
  async function* gen(): AsyncGenerator<string> {
    started = true
    yield 'x'
  }
  const g = pumpOf(gen(), 'none')
  g.pump.start()
  await tick()
  assert.not.ok(started, 'a generator is not even started')
})

test('ResponsePump :: a ReadableStream source is read to its end', async () => {
  const enc = new TextEncoder()
  const source = new ReadableStream<Uint8Array>({
    start: (c) => {
      c.enqueue(enc.encode('one'))
      c.enqueue(enc.encode('two'))
      c.close()
    },
  })
  const { pump, rec, outcome } = pumpOf(source, 'chunked')
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  assert.is(rec.text(), '3\r\none\r\n3\r\ntwo\r\n0\r\n\r\n')
})

test('ResponsePump :: pulls nothing while the backlog is past HIGH_WATER, and again once writable', async () => {
  let pulls = 0
  async function* endless(): AsyncGenerator<Uint8Array> {
    for (;;) {
      pulls++
      yield new Uint8Array(1024)
    }
  }
  const rec = recording()
  rec.growing = true
  const { pump, advance } = pumpOf(endless(), 'chunked', undefined, rec)
  pump.start()
  await tick()
  const held = pulls
  assert.ok(held > 0 && held <= HIGH_WATER / 1024 + 2, `bounded pulls (${held})`)
  assert.ok(pump.blockedSince >= 0, 'waiting for the socket')
  advance(50)
  await tick()
  await tick()
  assert.is(pulls, held, 'no pull while blocked')
  rec.backlog = 0
  pump.writable()
  assert.is(pump.blockedSince, -1)
  await tick()
  assert.ok(pulls > held, 'pulling again')
  assert.ok(pulls <= 2 * held + 2, 'and blocked again')
  pump.writable() // not waiting: nothing happens
  pump.cancel('done')
})

test('ResponsePump :: cancel: the source is told (finally runs), nothing more is written, done once', async () => {
  let finished = false
  let release: () => void = () => undefined
  async function* slow(): AsyncGenerator<string> {
    try {
      yield 'first'
      await new Promise<void>((r) => (release = r))
      yield 'late'
    } finally {
      finished = true
    }
  }
  const { pump, rec, outcomes } = pumpOf(slow(), 'chunked')
  pump.start()
  await tick()
  pump.cancel('the client went away')
  pump.cancel('again')
  release()
  await tick()
  await tick()
  assert.equal(outcomes, [{ _tag: 'Cancelled', reason: 'the client went away' }])
  assert.ok(finished)
  assert.is(rec.text(), '5\r\nfirst\r\n')
})

test('ResponsePump :: cancel while blocked on the socket wakes the loop, which stops', async () => {
  let cancelled = 0
  const source = new ReadableStream<Uint8Array>(
    { pull: (c) => c.enqueue(new Uint8Array(10)), cancel: () => void cancelled++ },
    { highWaterMark: 0 },
  )
  const { pump, rec, outcomes } = pumpOf(source, 'close')
  rec.backlog = HIGH_WATER + 1
  pump.start()
  await tick()
  assert.ok(pump.blockedSince >= 0)
  const written = rec.writes.length
  pump.cancel('stalled')
  await tick()
  assert.is(rec.writes.length, written)
  assert.is(cancelled, 1)
  assert.equal(outcomes, [{ _tag: 'Cancelled', reason: 'stalled' }])
})

test('ResponsePump :: a source that throws fails the answer with its error; no last chunk', async () => {
  async function* broken(): AsyncGenerator<string> {
    yield 'part'
    throw new Error('kaput')
  }
  const { pump, rec, outcome } = pumpOf(broken(), 'chunked')
  pump.start()
  const o = await outcome
  assert.is(o._tag, 'Failed')
  assert.match(String(o._tag === 'Failed' && o.error), /kaput/)
  assert.is(rec.text(), '4\r\npart\r\n')
})

test('ResponsePump :: a piece neither bytes nor text fails the answer', async () => {
  const bad = { async *[Symbol.asyncIterator]() { yield 42 as unknown as string } }
  const { pump, outcome } = pumpOf(bad, 'chunked')
  pump.start()
  const o = await outcome
  assert.ok(o._tag === 'Failed' && o.error instanceof TypeError)
})

test('ResponsePump :: a source whose return() throws or rejects is cancelled all the same', async () => {
  const throwing: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({
      next: () => new Promise(() => undefined),
      return: () => {
        throw new Error('no')
      },
    }),
  }
  const t = pumpOf(throwing, 'chunked')
  t.pump.start()
  t.pump.cancel('bye')
  assert.equal(t.outcomes, [{ _tag: 'Cancelled', reason: 'bye' }])
  const rejecting: AsyncIterable<string> = {
    [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined), return: () => Promise.reject(new Error('no')) }),
  }
  const r = pumpOf(rejecting, 'chunked')
  r.pump.start()
  r.pump.cancel('bye')
  await tick()
  assert.equal(r.outcomes, [{ _tag: 'Cancelled', reason: 'bye' }])
  const bare: AsyncIterable<string> = { [Symbol.asyncIterator]: () => ({ next: () => new Promise(() => undefined) }) }
  const b = pumpOf(bare, 'chunked')
  b.pump.start()
  b.pump.cancel('bye')
  assert.ok(b.pump.ended, 'an iterator without return() is just left')
})

test('ResponsePump :: idleSince moves when the source gives a piece', async () => {
  let release: () => void = () => undefined
  async function* later(): AsyncGenerator<string> {
    await new Promise<void>((r) => (release = r))
    yield 'x'
  }
  const { pump, advance, outcome } = pumpOf(later(), 'chunked')
  pump.start()
  assert.is(pump.idleSince, 100)
  advance(40)
  release()
  await outcome
  assert.is(pump.idleSince, 140)
})

// A lent source of `count` pieces of `size` bytes, recording which pieces came back and when.
const lentSource = (count: number, size: number): { source: LentSource; given: Uint8Array[]; back: number[] } => {
  const given: Uint8Array[] = []
  const back: number[] = []
  async function* pieces(): AsyncGenerator<Uint8Array> {
    for (let i = 0; i < count; i++) {
      const piece = new Uint8Array(size).fill(0x61 + i)
      given.push(piece)
      yield piece
    }
  }
  return { source: Object.assign(pieces(), { releasePiece: (piece: Uint8Array) => void back.push(given.indexOf(piece)) }), given, back }
}

test('ResponsePump :: a lent piece goes back once the socket has taken it, never while it is held', async () => {
  // A socket that takes nothing: every piece stays in the backlog, so none goes back.
  const held = lentSource(3, 10)
  const rec = recording()
  rec.growing = true
  const { pump, outcome } = pumpOf(held.source, 'length', 30, { ...rec, sink: { ...rec.sink, releasesTaken: true } })
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  assert.equal([held.back, rec.backlog], [[], 30])
  // A socket that takes everything at once: each piece goes back before the next is pulled, the last before the end.
  const taken = lentSource(3, 10)
  const rec2 = recording()
  const { pump: pump2, outcome: outcome2 } = pumpOf(taken.source, 'chunked', undefined, { ...rec2, sink: { ...rec2.sink, releasesTaken: true } })
  pump2.start()
  assert.equal(await outcome2, { _tag: 'Sent' })
  assert.equal(taken.back, [0, 1, 2])
  assert.is(rec2.text(), 'a\r\naaaaaaaaaa\r\na\r\nbbbbbbbbbb\r\na\r\ncccccccccc\r\n0\r\n\r\n')
})

test('ResponsePump :: a piece still in the backlog when the answer ends stays out; a sink that cannot tell gets none back', async () => {
  const rec = recording()
  const lent = lentSource(2, 10)
  const { pump, outcome } = pumpOf(lent.source, 'close', undefined, { ...rec, sink: { ...rec.sink, releasesTaken: true, buffered: () => (rec.writes.length >= 2 ? 5 : 0) } })
  pump.start()
  assert.equal(await outcome, { _tag: 'Sent' })
  assert.equal(lent.back, [0], 'the first piece was taken; 5 bytes of the second are still held')
  const plain = lentSource(2, 10)
  const { pump: pump2, outcome: outcome2 } = pumpOf(plain.source, 'close')
  pump2.start()
  assert.equal(await outcome2, { _tag: 'Sent' })
  assert.equal(plain.back, [], 'no releasesTaken: nothing given back')
})

test.run()

/**
 * `sseFallback` with the transports in the spec's hands: a WebSocket whose open, failure and
 * messages the spec decides, and an event stream (a `fetch` whose body the spec writes and
 * ends), so the order in which a probe's two sockets report is forced rather than hoped for.
 * The case that matters: the server moves the session to the probe's WebSocket and ends the
 * event stream it replaces; the stream's end may reach the client before the WebSocket's open
 * (a Deno server writes the 101 later than it closes the stream), and must not end the link.
 * Portable (Node, Bun, Deno): no node:*, no real network.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { connect } from '../../lib/client/connect.js'
import { sseFallback, type StreamFetch } from '../../lib/client/fallback.js'
import type { WebSocketLike } from '../../lib/client/web-socket-like.js'

const test = suite('sseFallback')

const tick = (): Promise<void> => new Promise((r) => setTimeout(r, 0))
// Waits for `check`, a bounded number of turns (no time in it).
const until = async (check: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 200; i++) {
    if (check()) return
    await tick()
  }
  throw new Error(`never: ${what}`)
}

const session = (sid: string, recovered: boolean): string => JSON.stringify({ event: 'tp:session', data: { sid, recovered, heartbeat: 0 } })
const said = (n: number): string => `{"event":"said","data":${n},"seq":${n}}`

// The WebSockets the client makes, driven by the spec.
class FakeSocket implements WebSocketLike {
  static made: FakeSocket[] = []
  readyState = 0
  binaryType = 'blob'
  onopen: ((event: never) => void) | null = null
  onmessage: ((event: never) => void) | null = null
  onerror: ((event: never) => void) | null = null
  onclose: ((event: never) => void) | null = null
  readonly sent: string[] = []
  closedWith: number | undefined = undefined
  constructor(readonly url: string) {
    FakeSocket.made.push(this)
  }
  send(data: string): void {
    this.sent.push(data)
  }
  close(code = 1005): void {
    this.closedWith ??= code
    this.readyState = 3
  }
  /** The upgrade is refused (a proxy's 403): an error, then the close. */
  refuse(): void {
    this.readyState = 3
    ;(this.onerror as ((e: object) => void) | null)?.({ message: 'refused' })
    ;(this.onclose as ((e: object) => void) | null)?.({ code: 1006, reason: '' })
  }
  open(): void {
    this.readyState = 1
    ;(this.onopen as ((e: object) => void) | null)?.({})
  }
  message(data: string): void {
    ;(this.onmessage as ((e: object) => void) | null)?.({ data })
  }
}

// The event streams the client opens (each one's writer) and the posts it makes.
const fakeServer = () => {
  const streams: ReadableStreamDefaultController<Uint8Array>[] = []
  const posts: string[] = []
  const utf8 = new TextEncoder()
  const fetch: StreamFetch = (_url, init) => {
    if (init.method === 'POST') {
      posts.push(init.body ?? '')
      return Promise.resolve({ ok: true, status: 202, statusText: 'Accepted', headers: { get: () => null }, body: null })
    }
    const body = new ReadableStream<Uint8Array>({ start: (c) => void streams.push(c) })
    init.signal?.addEventListener('abort', () => {
      try {
        body.cancel().catch(() => undefined)
      } catch {
        // Already read to its end.
      }
    })
    return Promise.resolve({ ok: true, status: 200, statusText: 'OK', headers: { get: () => 'text/event-stream' }, body })
  }
  const event = (stream: number, id: string, data: string): void => streams[stream]?.enqueue(utf8.encode(`id: ${id}\ndata: ${data}\n\n`))
  // The server ends stream `stream` (a stream the client let go of is cancelled already).
  const end = (stream: number): void => {
    try {
      streams[stream]?.close()
    } catch {
      // Cancelled by the client: nothing to end.
    }
  }
  return { fetch, streams, posts, event, end }
}

// A client on the event stream (its first WebSocket refused), having read `said` 1 and 2; the probe's WebSocket made.
const onTheStream = async () => {
  FakeSocket.made = []
  const server = fakeServer()
  const client = connect('http://example.test/events', {
    WebSocket: FakeSocket,
    fallback: sseFallback({ fetch: server.fetch, probeInterval: 0, upgradeTimeout: 60_000 }),
    reconnect: { minDelay: 60_000, maxDelay: 60_000 },
  })
  const heard: unknown[] = []
  const sessions: unknown[] = []
  const closes: number[] = []
  client.on('said', (n: unknown) => void heard.push(n))
  client.on('session', (s: { id: string; recovered: boolean }) => void sessions.push([s.id, s.recovered]))
  client.on('close', (c: { code: number }) => void closes.push(c.code))
  await until(() => FakeSocket.made.length === 1, 'the first WebSocket')
  FakeSocket.made[0]?.refuse()
  await until(() => server.streams.length === 1, 'the event stream')
  server.event(0, 'S:0', session('S', false))
  server.event(0, 'S:1', said(1))
  server.event(0, 'S:2', said(2))
  await until(() => FakeSocket.made.length === 2, 'the probe')
  const probe = FakeSocket.made[1] as FakeSocket
  return { client, server, probe, heard, sessions, closes }
}

test('sseFallback :: the probe resumes the session from the stream\'s last event id', async () => {
  const { client, probe } = await onTheStream()
  try {
    const query = new URL(probe.url).searchParams
    assert.is(query.get('tp_sid'), 'S')
    assert.is(query.get('tp_last'), '2')
  } finally {
    client.close()
  }
})

test('sseFallback :: the server moves the session to the probe and ends the stream; the end arrives before the open: the link goes on over the WebSocket, nothing lost or doubled', async () => {
  const { client, server, probe, heard, sessions, closes } = await onTheStream()
  try {
    // Sent after the cursor was read: on the stream, and replayed on the WebSocket.
    server.event(0, 'S:3', said(3))
    server.end(0)
    await tick()
    await tick()
    probe.open()
    probe.message(session('S', true))
    probe.message(said(3))
    probe.message(said(4))
    assert.equal(heard, [1, 2, 3, 4])
    assert.equal(sessions, [['S', false], ['S', true]])
    assert.equal(closes, [], 'the link never closed')
    assert.is(probe.closedWith, undefined, 'the probe is not let go of')
    assert.is(client.state, 'open')
    client.emit('say', 5)
    assert.equal(probe.sent, ['{"event":"say","data":5}'])
  } finally {
    client.close()
  }
})

test('sseFallback :: the stream ends during a probe that then fails: the link closes then (and reconnects)', async () => {
  const { client, server, probe, closes } = await onTheStream()
  try {
    server.end(0)
    await tick()
    await tick()
    probe.refuse()
    assert.equal(closes, [1006])
    assert.is(client.state, 'reconnecting')
  } finally {
    client.close()
  }
})

test('sseFallback :: the probe opens first, then the stream ends: the link goes on over the WebSocket', async () => {
  const { client, server, probe, heard, closes } = await onTheStream()
  try {
    probe.open()
    probe.message(session('S', true))
    server.end(0)
    await tick()
    probe.message(said(3))
    assert.equal(heard, [1, 2, 3])
    assert.equal(closes, [])
  } finally {
    client.close()
  }
})

test('sseFallback :: the client closes while a probe is under way: the probe goes with the link\'s code (4000: the session is kept for a reconnect)', async () => {
  const { client, probe } = await onTheStream()
  client.close(4000, 'coming back')
  assert.is(probe.closedWith, 4000)
})

test.run()

/**
 * Event streams under `toFetch` (issues 23 and 24): an admitted stream is a client of the
 * registry whose events the Response's body carries: its session, a broadcast to its room,
 * a post dispatched and acknowledged on the stream, a server request answered by post, the
 * client gone when the body is cancelled or the request's signal aborts (the disconnect
 * handlers run), a reader that does not keep up cut under `maxSendBuffer`, `close()` ending
 * it, a refusal by the upgrade guards or the origin check answered before any stream, and the
 * guards' admission kept as the client's data. Called directly with web `Request`s, as a host
 * would. Portable: runs in Node, Bun and Deno (spec/fetch is one of the portable folders).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { parseQuery } from '../../lib/core/http/parse-query.js'
import { forbidden, unauthorized } from '../../lib/core/http/response.js'
import { httpRoute } from '../../lib/core/route/http-route.js'
import { onConnect } from '../../lib/core/route/on-connect.js'
import { onDisconnect } from '../../lib/core/route/on-disconnect.js'
import { socketOn } from '../../lib/core/route/socket-on.js'
import { ssePostRoute, sseRoute } from '../../lib/core/route/sse-route.js'
import { upgradeGuard } from '../../lib/core/route/upgrade-guard.js'
import { admit } from '../../lib/core/route/upgrade-middleware.js'
import { type ReadSseEvent, readSseEvents, SSE_READER_START, type SseReader } from '../../lib/core/sse/read-sse-events.js'
import { silentLogger } from '../../lib/core/index.js'
import { type FetchHandler, type FetchOptions, toFetch } from '../../lib/fetch/to-fetch.js'

const URL = 'http://app.test'

const eventually = async (check: () => boolean, what: string): Promise<void> => {
  for (let i = 0; i < 400; i++) {
    if (check()) return
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  assert.unreachable(`never: ${what}`)
}

interface Probe {
  readonly seen: string[]
}

const appOf = (probe: Probe, options: FetchOptions = {}): FetchHandler =>
  toFetch({
    logger: silentLogger,
    ...options,
    routes: [
      upgradeGuard('/ops', (req) => {
        const token = parseQuery(req.rawQuery)['token']
        return token === undefined ? unauthorized() : token === 'secret' ? admit({ role: 'ops' }) : forbidden()
      }),
      sseRoute('/ops', { rooms: ['r'] }),
      sseRoute('/events', { rooms: ['r'] }),
      ssePostRoute('/events'),
      httpRoute('POST', '/shout', async (req, ctx) => {
        ctx.broadcast('said', new TextDecoder().decode(req.rawBody), { room: 'r' })
        return { ok: true }
      }),
      onConnect((ctx) => void probe.seen.push(`connect ${ctx.request.path} ${String(ctx.getClientData('role') ?? '-')}`)),
      onDisconnect((ctx) => void probe.seen.push(`disconnect ${ctx.clientId}`)),
      socketOn('double', (n) => (n as number) * 2),
      socketOn('say', (data, ctx) => void ctx.broadcast('said', data, { room: 'r' })),
    ],
  })

// A Response's body read as events.
const eventsOf = (res: Response) => {
  const reader = (res.body as ReadableStream<Uint8Array>).getReader()
  const decoder = new TextDecoder()
  const events: ReadSseEvent[] = []
  let state: SseReader = SSE_READER_START
  let rest = ''
  let ended = false
  const pump = (async () => {
    try {
      for (;;) {
        const step = await reader.read()
        if (step.done) break
        const read = readSseEvents(state, rest + decoder.decode(step.value, { stream: true }))
        events.push(...read.events)
        state = read.reader
        rest = read.rest
      }
    } catch {
      // Cancelled or cut: ended all the same.
    }
    ended = true
  })()
  return {
    events,
    ended: () => ended,
    lastEventId: () => state.lastEventId,
    until: async (count: number): Promise<readonly ReadSseEvent[]> => {
      await eventually(() => events.length >= count, `${count} events (have ${JSON.stringify(events.map((e) => e.data))})`)
      return events
    },
    cancel: async (): Promise<void> => {
      await reader.cancel().catch(() => undefined)
      await pump
    },
  }
}

const open = (app: FetchHandler, path: string, init: RequestInit = {}): Promise<Response> =>
  Promise.resolve(app(new Request(`${URL}${path}`, { ...init, headers: { accept: 'text/event-stream', ...(init.headers as Record<string, string> | undefined) } })))

const dataOf = (event: ReadSseEvent | undefined): { event: string; data: unknown; id?: number; seq?: number } => JSON.parse(event?.data ?? 'null')

test('toFetch event streams :: a stream is a client of the registry: its session, then a broadcast to its room, numbered', async () => {
  const probe: Probe = { seen: [] }
  const app = appOf(probe)
  const res = await open(app, '/events')
  const stream = eventsOf(res)
  try {
    assert.is(res.status, 200)
    assert.is(res.headers.get('content-type'), 'text/event-stream; charset=utf-8')
    assert.is(res.headers.get('cache-control'), 'no-cache')
    const [session] = await stream.until(1)
    assert.is(dataOf(session).event, 'tp:session')
    assert.equal(app.clients().filter((c) => c.type === 'sse').length, 1)
    assert.equal(probe.seen, ['connect /events -'])
    assert.is((await app(new Request(`${URL}/shout`, { method: 'POST', body: 'hello' }))).status, 200)
    const events = await stream.until(2)
    assert.equal(dataOf(events[1]), { event: 'said', data: 'hello', seq: 1 })
    assert.match(stream.lastEventId(), /:1$/, 'the event carries its session cursor')
  } finally {
    await stream.cancel()
    await app.close()
  }
})

test('toFetch event streams :: a post reaches the session: dispatched, its ack and a broadcast come on the stream', async () => {
  const app = appOf({ seen: [] })
  const res = await open(app, '/events')
  const stream = eventsOf(res)
  try {
    const sid = (dataOf((await stream.until(1))[0]).data as { sid: string }).sid
    const post = (text: string): Promise<Response> =>
      Promise.resolve(app(new Request(`${URL}/events`, { method: 'POST', body: text, headers: { 'x-twinport-session': sid, 'content-type': 'text/plain' } })))
    assert.is((await post(JSON.stringify({ event: 'double', data: 21, id: 1 }))).status, 202)
    assert.is((await post(JSON.stringify({ event: 'say', data: 'both ways' }))).status, 202)
    const events = await stream.until(3)
    assert.equal(
      events.slice(1).map((e) => { const { seq: _, ...rest } = dataOf(e); return rest }),
      [{ event: 'ack', id: 1, data: 42 }, { event: 'said', data: 'both ways' }],
    )
    const unknown = await app(new Request(`${URL}/events`, { method: 'POST', body: '{}', headers: { 'x-twinport-session': 'nope' } }))
    assert.is(unknown.status, 404, 'no stream holds that session')
  } finally {
    await stream.cancel()
    await app.close()
  }
})

test('toFetch event streams :: the body cancelled is the client gone: its disconnect handlers run (sessions off), as when the request signal aborts', async () => {
  const probe: Probe = { seen: [] }
  const app = appOf(probe, { recovery: false })
  try {
    const first = eventsOf(await open(app, '/events?retry=0'))
    await eventually(() => app.clients().length === 1, 'the client')
    const id = app.clients()[0]?.id
    await first.cancel()
    await eventually(() => probe.seen.includes(`disconnect ${id}`), 'its disconnect handler')
    assert.equal(app.clients(), [])
    const controller = new AbortController()
    const second = eventsOf(await open(app, '/events', { signal: controller.signal }))
    await eventually(() => app.clients().length === 1, 'the second client')
    const other = app.clients()[0]?.id
    controller.abort()
    await eventually(() => probe.seen.includes(`disconnect ${other}`), 'the second one gone with its request signal')
    await eventually(() => second.ended(), 'its body ended')
    assert.equal(app.clients(), [])
  } finally {
    await app.close()
  }
})

test('toFetch event streams :: a reader that does not keep up is cut past maxSendBuffer, never buffered without bound', async () => {
  const probe: Probe = { seen: [] }
  const app = appOf(probe, { recovery: false, limits: { maxSendBuffer: 4096 } })
  try {
    const res = await open(app, '/events')
    await eventually(() => app.clients().length === 1, 'the client')
    const id = app.clients()[0]?.id
    // Never read: the Response's queue fills (64 KiB), then the client's backlog passes the limit.
    const piece = 'x'.repeat(1000)
    for (let i = 0; i < 200; i++) {
      app.broadcast('said', piece, { room: 'r' })
      await new Promise((resolve) => setTimeout(resolve, 0))
    }
    // Its stream was ended there: what it was given before is finite, and the rest never came.
    const body = await res.text()
    assert.ok(body.length < 150_000, `cut, not all of it (${body.length} characters)`)
    await eventually(() => probe.seen.includes(`disconnect ${id}`), 'the slow client gone once its stream was read to the end')
    assert.equal(app.clients(), [])
  } finally {
    await app.close()
  }
})

test('toFetch event streams :: close() ends the stream', async () => {
  const app = appOf({ seen: [] })
  const stream = eventsOf(await open(app, '/events'))
  await stream.until(1)
  await app.close()
  await eventually(() => stream.ended(), 'the body ended')
})

test('toFetch event streams :: an upgradeGuard decides the stream (401/403, no stream); its admission is the client\'s data; an origin the server refuses is 403', async () => {
  const probe: Probe = { seen: [] }
  const app = appOf(probe, { allowedOrigins: ['https://app.test'] })
  try {
    for (const [query, status] of [['', 401], ['?token=nope', 403]] as const) {
      const res = await open(app, `/ops${query}`)
      assert.is(res.status, status, query)
      assert.not.ok(res.headers.get('content-type')?.startsWith('text/event-stream'), 'never a stream head')
      await res.body?.cancel()
    }
    const foreign = await open(app, '/events', { headers: { origin: 'https://evil.test' } })
    assert.is(foreign.status, 403)
    await foreign.body?.cancel()
    await eventually(() => app.clients().length === 0, 'no client is held for a refusal')
    const res = await open(app, '/ops?token=secret', { headers: { origin: 'https://app.test' } })
    assert.is(res.status, 200)
    const stream = eventsOf(res)
    await stream.until(1)
    assert.equal(probe.seen, ['connect /ops ops'])
    await stream.cancel()
    const head = await open(app, '/events', { method: 'HEAD' })
    assert.equal([head.status, head.headers.get('content-type')], [200, 'text/event-stream; charset=utf-8'])
    await eventually(() => app.clients().length === 0, 'HEAD holds no client')
  } finally {
    await app.close()
  }
})

test('toFetch event streams :: a server request reaches a stream that announced tp_r=1 and is answered by post', async () => {
  const app = appOf({ seen: [] })
  const stream = eventsOf(await open(app, '/events?tp_r=1'))
  try {
    const sid = (dataOf((await stream.until(1))[0]).data as { sid: string }).sid
    const id = app.clients()[0]?.id as number
    const answer = app.requestClient(id, 'ping', 'are you there?', { timeoutMs: 3000 })
    const [, asked] = await stream.until(2)
    const request = dataOf(asked)
    assert.is(request.event, 'ping')
    const post = await app(new Request(`${URL}/events`, { method: 'POST', body: JSON.stringify({ event: 'ack', id: request.id, data: 'yes' }), headers: { 'x-twinport-session': sid } }))
    assert.is(post.status, 202)
    assert.equal(await answer, { _tag: 'Answered', clientId: id, data: 'yes' })
  } finally {
    await stream.cancel()
    await app.close()
  }
})

test('toFetch event streams :: a host that keeps no process (Workers: eventStreams false) answers an admitted stream 501, holding no client', async () => {
  let connects = 0
  const app = toFetch({ routes: [sseRoute('/live'), onConnect(() => void connects++)], logger: silentLogger }, { eventStreams: false })
  try {
    const res = await app(new Request(`${URL}/live`, { headers: { accept: 'text/event-stream' } }))
    assert.is(res.status, 501)
    assert.match(((await res.json()) as { error: string }).error, 'event streams are not served by this host')
    assert.is(connects, 0)
  } finally {
    await app.close()
  }
})

test.run()

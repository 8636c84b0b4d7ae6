/**
 * `toWorker` for real on workerd (spec/support/workerd.ts): the example Worker
 * (examples/workers/worker.ts) bundled with esbuild and served with its Durable Object hubs on
 * a free loopback port, driven from Node with `fetch` and `ws`: the HTTP side (a route, 404,
 * a bad JSON body, an event stream's 501), the start-up note, refused upgrades (status, and close code for `tp_c=1`), connect hooks, acks, typed
 * payloads and error events, rooms and broadcasts, client data, kicks, disconnect hooks, one
 * hub per path, binary messages without a raw route. Skipped, with the reason, only when the
 * workerd binary cannot run on this machine.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { delay, eventually, openClient, type TestClient, testClient } from '../support/server.js'
import { startWorkerd, type Workerd, workerdRuns } from '../support/workerd.js'

const Worker = suite<{ workerd?: Workerd }>('toWorker on workerd', {})
const unable = await workerdRuns()

const join = (port: number, user: string, path = '/chat'): Promise<TestClient> => openClient(port, `${path}?user=${user}`)

// The answer to the request with `id`, skipping the events in between.
const answerOf = async (client: TestClient, id: number): Promise<{ event: string; data?: unknown; id?: unknown }> => {
  for (;;) {
    const message = await client.nextJson(5000)
    if (message.id === id) return message
  }
}

// The next message with `event`, skipping others.
const eventOf = async (client: TestClient, event: string): Promise<{ event: string; data?: unknown }> => {
  for (;;) {
    const message = await client.nextJson(5000)
    if (message.event === event) return message
  }
}

if (unable !== undefined) {
  Worker('skipped: workerd cannot run on this machine', () => console.log(`[workers] skipped: ${unable}`))
} else {
  Worker.before(async (context) => {
    context.workerd = await startWorkerd('examples/workers/worker.ts', 'TwinportHub')
  })
  Worker.after(async (context) => {
    await context.workerd?.stop()
  })

  Worker('HTTP through toFetch: a route, 404, and the start-up note of what Workers lack', async ({ workerd }) => {
    const { url, output } = workerd as Workerd
    const hello = await fetch(`${url}/hello`)
    assert.is(hello.status, 200)
    assert.equal(await hello.json(), { hello: 'world' })
    assert.is((await fetch(`${url}/nope`)).status, 404)
    await eventually(() => output().includes('not available on Workers: session recovery'), 5000, 'the start-up note')
  })

  Worker('HTTP errors as under runServer: a bad JSON body 400, a wrong one 422; an event stream 501 (as documented)', async ({ workerd }) => {
    const { url } = workerd as Workerd
    const post = (body: string): Promise<Response> => fetch(`${url}/rooms/lobby/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body })
    const broken = await post('{"text":')
    assert.is(broken.status, 400)
    assert.equal(await broken.json(), { error: 'invalid_json', message: 'the body is not valid JSON' })
    const wrong = await post('{"txt":1}')
    assert.is(wrong.status, 422)
    const told = (await wrong.json()) as { error: string; details: unknown }
    assert.is(told.error, 'invalid_input')
    assert.equal(told.details, [{ path: 'body.text', expected: 'string' }])
    const stream = await fetch(`${url}/events?user=ada`, { headers: { accept: 'text/event-stream' } })
    assert.is(stream.status, 501)
    assert.equal(await stream.json(), { error: 'event streams are not served by this host' })
  })

  Worker('an upgrade the middleware refuses: 401 in the Worker, or close code 4401 for tp_c=1', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/chat`)
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.once('open', () => reject(new Error('opened')))
      ws.once('error', () => undefined)
    })
    assert.is(status, 401)
    const closed = await testClient(new WebSocket(`ws://127.0.0.1:${port}/chat?tp_c=1`)).closed(5000)
    assert.equal(closed, { code: 4401, reason: 'who are you? add ?user=<name>' })
  })

  Worker('an upgrade guard refuses in the Worker too: 403 (or 4403 for tp_c=1) to all but the admitted, who connects', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const status = await new Promise<number>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${port}/staff?user=bob`)
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
      ws.once('open', () => reject(new Error('opened')))
      ws.once('error', () => undefined)
    })
    assert.is(status, 403)
    const closed = await testClient(new WebSocket(`ws://127.0.0.1:${port}/staff?user=bob&tp_c=1`)).closed(5000)
    assert.equal(closed, { code: 4403, reason: 'staff only' })
    const ada = await join(port, 'ada', '/staff')
    assert.is((await ada.nextJson(5000)).event, 'welcome')
    ada.ws.close()
  })

  Worker('connect hook, acks with the handshake identity, typed payloads and error events', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const ada = await join(port, 'ada')
    const welcome = await ada.nextJson(5000)
    assert.is(welcome.event, 'welcome')
    const { id, user } = welcome.data as { id: number; user: string }
    assert.is(user, 'ada')
    ada.emit('whoami', null, 1)
    assert.equal(await answerOf(ada, 1), { event: 'ack', id: 1, data: { id, user: 'ada', path: '/chat' } })
    ada.emit('join', { room: 7 }, 2)
    const invalid = await answerOf(ada, 2)
    assert.is(invalid.event, 'error')
    assert.is((invalid.data as { error: string }).error, 'invalid_payload')
    ada.emit('nope', null, 3)
    assert.is(((await answerOf(ada, 3)).data as { error: string }).error, 'unknown_event')
    ada.ws.send('{not json')
    assert.is(((await eventOf(ada, 'error')).data as { error: string }).error, 'invalid_json')
    ada.emit('note', 'remember me', 4)
    assert.equal(await answerOf(ada, 4), { event: 'ack', id: 4, data: null })
    ada.emit('my-note', null, 5)
    assert.equal(await answerOf(ada, 5), { event: 'ack', id: 5, data: 'remember me' })
    ada.ws.close()
  })

  Worker('rooms: join, broadcast to the room only, leave; ids are distinct within a hub', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const [a, b, c] = [await join(port, 'a'), await join(port, 'b'), await join(port, 'c')]
    const ids = await Promise.all([a, b, c].map(async (client) => ((await eventOf(client, 'welcome')).data as { id: number }).id))
    assert.is(new Set(ids).size, 3)
    a.emit('join', { room: 'r1' }, 1)
    assert.equal(await answerOf(a, 1), { event: 'ack', id: 1, data: { room: 'r1', id: ids[0] } })
    b.emit('join', { room: 'r1' }, 1)
    await answerOf(b, 1)
    assert.equal(await eventOf(a, 'joined'), { event: 'joined', data: { room: 'r1', user: 'b' } })
    b.emit('say', { room: 'r1', text: 'hi' }, 2)
    const said = { event: 'said', data: { room: 'r1', text: 'hi', user: 'b' } }
    assert.equal(await eventOf(b, 'said'), said)
    assert.equal(await answerOf(b, 2), { event: 'ack', id: 2, data: 'sent' })
    assert.equal(await eventOf(a, 'said'), said)
    a.emit('leave', { room: 'r1' }, 3)
    await answerOf(a, 3)
    b.emit('say', { room: 'r1', text: 'again' }, 4)
    await answerOf(b, 4)
    await delay(200)
    const seen = [...a.pending, ...c.pending].map((m) => JSON.parse(m.toString()) as { event: string })
    assert.equal(seen.filter((m) => m.event === 'said'), [], 'c was never in r1, a left it')
    for (const client of [a, b, c]) client.ws.close()
  })

  Worker('a kick closes with its code; the others of the hub hear the disconnect hook, another hub does not', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const kicked = await join(port, 'k', '/kick')
    const stays = await join(port, 's', '/kick')
    const elsewhere = await join(port, 'e', '/other')
    await eventOf(kicked, 'welcome')
    await eventOf(stays, 'welcome')
    await eventOf(elsewhere, 'welcome')
    kicked.emit('kick-me', null, 1)
    assert.equal(await kicked.closed(5000), { code: 4001, reason: 'asked for it' })
    assert.is(((await eventOf(stays, 'left')).data as { user: string }).user, 'k')
    await delay(200)
    assert.equal(elsewhere.pending.length, 0, 'another hub heard nothing')
    stays.ws.close()
    elsewhere.ws.close()
  })

  Worker('an HTTP handler broadcasts to a room of the /chat hub, and to every client of it; another hub hears nothing', async ({ workerd }) => {
    const { port, url } = workerd as Workerd
    const clients: TestClient[] = []
    try {
      const [inRoom, outside, elsewhere] = [await join(port, 'in'), await join(port, 'out'), await join(port, 'else', '/other')]
      clients.push(inRoom, outside, elsewhere)
      for (const client of clients) await eventOf(client, 'welcome')
      inRoom.emit('join', { room: 'news' }, 1)
      await answerOf(inRoom, 1)
      const post = (path: string, text: string): Promise<Response> =>
        fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify({ text }), headers: { 'content-type': 'application/json' } })
      const posted = await post('/rooms/news/messages', 'from http')
      assert.is(posted.status, 202)
      assert.equal(await posted.json(), { sent: true })
      assert.equal(await eventOf(inRoom, 'said'), { event: 'said', data: { room: 'news', text: 'from http', user: 'http' } })
      assert.is((await post('/announce', 'to all')).status, 202)
      assert.equal(await eventOf(inRoom, 'announce'), { event: 'announce', data: 'to all' })
      // The announcement came after the room's message: had `outside` got that, it would come first.
      assert.equal(await outside.nextJson(5000), { event: 'announce', data: 'to all' })
      await delay(200)
      assert.equal(elsewhere.pending.length, 0, 'the /other hub is not in broadcastHubs')
    } finally {
      for (const client of clients) client.ws.close()
    }
  })

  Worker('a broadcast cannot be forged by a client: a hub takes it only as its Worker posts it', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const clients: TestClient[] = []
    try {
      const listener = await join(port, 'listener')
      clients.push(listener)
      await eventOf(listener, 'welcome')
      // An upgrade to the hub's internal URL path is only an upgrade: the client is a client.
      const forger = await openClient(port, '/broadcast?user=forger')
      clients.push(forger)
      assert.is((await eventOf(forger, 'welcome')).event, 'welcome')
      // A POST with the internal header is the Worker's own HTTP: a 404, nothing delivered.
      const res = await fetch(`http://127.0.0.1:${port}/broadcast`, { method: 'POST', body: 'x', headers: { 'x-twinport-target': '{}' } })
      assert.is(res.status, 404)
      await delay(200)
      assert.equal(listener.pending.length, 0)
    } finally {
      for (const client of clients) client.ws.close()
    }
  })

  Worker('client data past the 2 KiB attachment fails the handler (handler_error, the error hook says why), nothing changed; a long target is refused (414)', async ({ workerd }) => {
    const { port, output } = workerd as Workerd
    const clients: TestClient[] = []
    try {
      const ada = await join(port, 'big')
      clients.push(ada)
      await eventOf(ada, 'welcome')
      ada.emit('note', 'n'.repeat(1500), 1)
      assert.equal(await answerOf(ada, 1), { event: 'ack', id: 1, data: null }, '1,500 bytes fit')
      ada.emit('note', 'n'.repeat(2100), 2)
      const failed = await answerOf(ada, 2)
      assert.is(failed.event, 'error')
      assert.is((failed.data as { error: string }).error, 'handler_error')
      await eventually(() => output().includes("setClientData('note') for client"), 5000, 'the error hook names the change')
      assert.ok(output().includes('past the 2048 Cloudflare keeps'))
      ada.emit('my-note', null, 3)
      assert.equal(await answerOf(ada, 3), { event: 'ack', id: 3, data: 'n'.repeat(1500) }, 'the data before the refused change')
      ada.emit('join', { room: 'still-usable' }, 4)
      assert.is((await answerOf(ada, 4)).event, 'ack')
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`ws://127.0.0.1:${port}/chat?user=long&pad=${'p'.repeat(2100)}`)
        ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0))
        ws.once('open', () => reject(new Error('opened')))
        ws.once('error', () => undefined)
      })
      assert.is(status, 414)
    } finally {
      for (const client of clients) client.ws.close()
    }
  })

  Worker('a binary message without a raw route closes with 1003', async ({ workerd }) => {
    const { port } = workerd as Workerd
    const client = await join(port, 'bin')
    await eventOf(client, 'welcome')
    client.ws.send(new Uint8Array([1, 2, 3]))
    assert.is((await client.closed(5000)).code, 1003)
  })
}

Worker.run()

/**
 * Client sessions on a real socket (docs/protocol.md, "Sessions, numbering and recovery"),
 * spoken by a plain `ws` client so the wire itself is checked, not twinport/client. The app
 * (spec/integration/fixtures/sessions.ts) is served by the runtime TWINPORT_TARGET names.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import { serve } from '../support/fixture-server.js'
import { delay, eventually } from '../support/server.js'

interface Message {
  readonly event: string
  readonly data?: unknown
  readonly id?: unknown
  readonly seq?: number
}

// A ws client that keeps every parsed message.
const connect = (port: number, query = ''): Promise<{ ws: WebSocket; got: Message[]; closed: () => boolean }> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/${query}`)
    const got: Message[] = []
    let isClosed = false
    ws.on('message', (data: Buffer) => got.push(JSON.parse(data.toString()) as Message))
    ws.on('close', () => void (isClosed = true))
    ws.on('error', () => undefined)
    ws.once('open', () => resolve({ ws, got, closed: () => isClosed }))
    ws.once('unexpected-response', () => reject(new Error('refused')))
  })

const waitFor = async (got: Message[], check: (m: Message) => boolean, what: string): Promise<Message> => {
  await eventually(() => got.some(check), 3000, what)
  return got.find(check) as Message
}

const Sessions = suite('runServer :: client sessions')

Sessions('a client that does not ask (no tp_v=1) sees no session message and no numbers', async () => {
  const { server, port } = await serve('sessions', 'app')
  try {
    const c = await connect(port)
    c.ws.send(JSON.stringify({ event: 'join', data: 'r', id: 1 }))
    const ack = await waitFor(c.got, (m) => m.event === 'ack', 'the ack')
    assert.equal(ack, { event: 'ack', id: 1, data: (await server.clients())[0]?.id })
    await server.broadcast('hello', 1, { room: 'r' })
    await waitFor(c.got, (m) => m.event === 'hello', 'the broadcast')
    assert.equal(c.got.map((m) => m.seq), [undefined, undefined])
    c.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('tp_v=1: the session message first (unnumbered), then every envelope numbered from 1', async () => {
  const { server, port } = await serve('sessions', 'app', { limits: { heartbeatIntervalMs: 40 } })
  try {
    const c = await connect(port, '?tp_v=1')
    const first = await waitFor(c.got, () => true, 'the session message')
    assert.is(first.event, 'tp:session')
    const data = first.data as { sid: string; recovered: boolean; heartbeat: number }
    assert.match(data.sid, /^[A-Za-z0-9_-]+$/)
    assert.is(data.recovered, false)
    assert.is(data.heartbeat, 40)
    c.ws.send(JSON.stringify({ event: 'join', data: 'r', id: 'a' }))
    await waitFor(c.got, (m) => m.event === 'ack', 'the ack')
    const id = (await server.clients())[0]?.id ?? 0
    await server.batch([['broadcast', 'hello', 1, { room: 'r' }], ['send', id, 'direct', 2]])
    await waitFor(c.got, (m) => m.event === 'direct', 'the direct event')
    assert.equal(c.got.filter((m) => m.event !== 'tp:heartbeat').map((m) => [m.event, m.seq]), [['tp:session', undefined], ['ack', 1], ['hello', 2], ['direct', 3]])
    // Browsers cannot see pings: session clients get a heartbeat event, unnumbered.
    const beat = await waitFor(c.got, (m) => m.event === 'tp:heartbeat', 'a heartbeat event')
    assert.is(beat.seq, undefined)
    c.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('a broken link is recovered within the window: same client id, rooms, data, and the missed messages in order, once', async () => {
  const { server, port } = await serve('sessions', 'app')
  try {
    const c = await connect(port, '?tp_v=1')
    const { sid } = (await waitFor(c.got, (m) => m.event === 'tp:session', 'session')).data as { sid: string }
    c.ws.send(JSON.stringify({ event: 'join', data: 'r', id: 1 }))
    c.ws.send(JSON.stringify({ event: 'remember', data: 'kept value', id: 2 }))
    const clientId = (await waitFor(c.got, (m) => m.event === 'ack' && m.id === 1, 'join ack')).data as number
    await waitFor(c.got, (m) => m.event === 'ack' && m.id === 2, 'remember ack')
    const lastSeq = Math.max(...c.got.map((m) => m.seq ?? 0))
    c.ws.terminate() // the link breaks: no close frame
    await eventually(async () => (await server.clients()).length === 0, 2000, 'the server to see the break')
    for (const n of [1, 2, 3]) await server.broadcast('missed', n, { room: 'r' })
    const back = await connect(port, `?tp_v=1&tp_sid=${sid}&tp_last=${lastSeq}`)
    await waitFor(back.got, (m) => m.event === 'missed' && m.data === 3, 'the missed messages')
    assert.equal(back.got[0], { event: 'tp:session', data: { sid, recovered: true, heartbeat: 30000 } })
    assert.equal(back.got.slice(1).map((m) => [m.data, m.seq]), [[1, lastSeq + 1], [2, lastSeq + 2], [3, lastSeq + 3]])
    assert.equal((await server.clients()).map((cl) => cl.id), [clientId])
    assert.equal(await server.namespaces.clientsInRoom('r'), [clientId])
    back.ws.send(JSON.stringify({ event: 'recall', id: 3 }))
    assert.is((await waitFor(back.got, (m) => m.id === 3, 'recall')).data, 'kept value')
    back.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('past the window, or after a deliberate close, a resume gets a fresh session (recovered: false) and no rooms', async () => {
  const { server, port } = await serve('sessions', 'app', { recovery: { windowMs: 50 } })
  try {
    for (const end of ['break', 'close'] as const) {
      const c = await connect(port, '?tp_v=1')
      const { sid } = (await waitFor(c.got, (m) => m.event === 'tp:session', 'session')).data as { sid: string }
      c.ws.send(JSON.stringify({ event: 'join', data: 'r', id: 1 }))
      await waitFor(c.got, (m) => m.event === 'ack', 'ack')
      if (end === 'break') c.ws.terminate()
      else c.ws.close(1000)
      await eventually(async () => (await server.clients()).length === 0, 2000, 'the server to see the end')
      if (end === 'break') await delay(120) // past the 50 ms window
      assert.equal(await server.namespaces.clientsInRoom('r'), [], `${end}: the room is empty`)
      const back = await connect(port, `?tp_v=1&tp_sid=${sid}&tp_last=1`)
      const session = (await waitFor(back.got, (m) => m.event === 'tp:session', 'session')).data as { sid: string; recovered: boolean }
      assert.is(session.recovered, false, end)
      assert.is.not(session.sid, sid)
      back.ws.close()
      await eventually(async () => (await server.clients()).length === 0, 2000, 'closed')
    }
  } finally {
    await server.close()
  }
})

Sessions('a request retried with the same id runs once: answered again, also after a reconnect', async () => {
  const { server, port } = await serve('sessions', 'app')
  try {
    const c = await connect(port, '?tp_v=1')
    const { sid } = (await waitFor(c.got, (m) => m.event === 'tp:session', 'session')).data as { sid: string }
    c.ws.send(JSON.stringify({ event: 'count', id: 5 }))
    c.ws.send(JSON.stringify({ event: 'count', id: 5 })) // while the first runs: it answers both
    await waitFor(c.got, (m) => m.id === 5, 'the answer')
    c.ws.send(JSON.stringify({ event: 'count', id: 5 })) // after: the same answer again
    await eventually(() => c.got.filter((m) => m.id === 5).length === 2, 2000, 'the repeated answer')
    assert.equal(c.got.filter((m) => m.id === 5).map((m) => m.data), [1, 1])
    assert.is(await server.probe('runs'), 1)
    // A slow request, the link breaks before its answer, the client retries after resuming.
    c.ws.send(JSON.stringify({ event: 'slow', id: 6 }))
    await eventually(async () => (await server.probe('slowStarted')) === 1, 2000, 'the slow handler to start')
    const lastSeq = Math.max(...c.got.map((m) => m.seq ?? 0))
    c.ws.terminate()
    await eventually(async () => (await server.clients()).length === 0, 2000, 'the break')
    const back = await connect(port, `?tp_v=1&tp_sid=${sid}&tp_last=${lastSeq}`)
    await waitFor(back.got, (m) => m.event === 'tp:session', 'session')
    back.ws.send(JSON.stringify({ event: 'slow', id: 6 })) // still running: not run again
    await server.probe('releaseSlow')
    const answer = await waitFor(back.got, (m) => m.id === 6, 'the answer')
    assert.is(answer.data, 2)
    back.ws.send(JSON.stringify({ event: 'slow', id: 6 })) // answered: the same answer again
    await eventually(() => back.got.filter((m) => m.id === 6).length === 2, 2000, 'the repeated answer')
    assert.equal(back.got.filter((m) => m.id === 6).map((m) => m.data), [2, 2])
    assert.is(await server.probe('slowStarted'), 1, 'the slow handler ran once')
    back.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('recovery: false turns sessions off: tp_v=1 is ignored', async () => {
  const { server, port } = await serve('sessions', 'app', { recovery: false })
  try {
    const c = await connect(port, '?tp_v=1')
    c.ws.send(JSON.stringify({ event: 'count', id: 1 }))
    await waitFor(c.got, (m) => m.event === 'ack', 'ack')
    assert.equal(c.got, [{ event: 'ack', id: 1, data: 1 }])
    c.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('a blip is not a departure: no disconnect, no second connect; the window ending is the departure', async () => {
  const { server, port } = await serve('sessions', 'lifecycle', { recovery: { windowMs: 150 } })
  const seen = (): Promise<readonly string[]> => server.probe('seen')
  try {
    const c = await connect(port, '?tp_v=1')
    const { sid } = (await waitFor(c.got, (m) => m.event === 'tp:session', 'session')).data as { sid: string }
    await eventually(async () => (await seen()).length === 1, 2000, 'connect')
    const id = (await server.clients())[0]?.id
    c.ws.terminate()
    await eventually(async () => (await server.clients()).length === 0, 2000, 'the break')
    const back = await connect(port, `?tp_v=1&tp_sid=${sid}&tp_last=0`)
    await waitFor(back.got, (m) => m.event === 'tp:session' && (m.data as { recovered: boolean }).recovered, 'recovered')
    await delay(30)
    assert.equal(await seen(), [`connect ${id}`])
    back.ws.terminate()
    await eventually(async () => (await seen()).length === 2, 2000, 'the disconnect when the window ends')
    assert.equal(await seen(), [`connect ${id}`, `disconnect ${id}`])
    assert.equal(await server.namespaces.clientsInRoom('r'), [])
  } finally {
    await server.close()
  }
})

// A ws client that keeps every message as it came: a batch (envelopes separated by RS) as an array.
const connectRaw = (port: number, query: string): Promise<{ ws: WebSocket; got: unknown[] }> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/${query}`)
    const got: unknown[] = []
    ws.on('message', (data: Buffer) => {
      const texts = data.toString().split('\x1e')
      got.push(texts.length === 1 ? JSON.parse(texts[0] as string) : texts.map((t) => JSON.parse(t) as unknown))
    })
    ws.on('error', () => undefined)
    ws.once('open', () => resolve({ ws, got }))
    ws.once('unexpected-response', () => reject(new Error('refused')))
  })

Sessions('tp_b: the session message announces batches; a batch is each envelope as if alone, answered in one numbered batch', async () => {
  const { server, port } = await serve('sessions', 'app')
  try {
    const c = await connectRaw(port, '?tp_v=1&tp_b=4096')
    await eventually(() => c.got.length === 1, 3000, 'the session message')
    const hello = c.got[0] as Message
    assert.is((hello.data as { batch: number }).batch, 16 * 1024 * 1024)
    // A good request, an invalid one (its id answered with the error), an unknown event, one
    // without id (no answer), the first id again (answered once: the handler runs once).
    c.ws.send(
      [
        { event: 'count', id: 1 },
        { event: 'join', data: 7, id: 2 },
        { event: '', id: 3 },
        { event: 'count' },
        { event: 'count', id: 1 },
        { event: 'nope', id: 4 },
      ]
        .map((e) => JSON.stringify(e))
        .join('\x1e'),
    )
    await eventually(() => c.got.length > 1, 3000, 'the answers')
    const batch = c.got[1] as Message[]
    assert.ok(Array.isArray(batch), 'the answers of one turn in one message')
    // As if each came alone in one read: the malformed envelope is answered at once, the
    // handlers' answers as they finish.
    assert.equal(
      batch.map((m) => [m.event, m.id, m.seq]),
      [
        ['error', 3, 1],
        ['error', 2, 2],
        ['error', 4, 3],
        ['ack', 1, 4],
      ],
    )
    assert.is((batch[0]?.data as { error: string }).error, 'invalid_message')
    assert.is((batch[1]?.data as { error: string }).error, 'invalid_payload')
    assert.is((batch[2]?.data as { error: string }).error, 'unknown_event')
    assert.is(batch[3]?.data, 1)
    await eventually(() => server.probe('runs').then((n) => n === 2), 3000, 'two runs of count')
    // An envelope that is not JSON, or empty, or not an object: its own error, as for a single message.
    c.ws.send('{"event":"count",\x1e\x1e[]')
    await eventually(() => c.got.slice(2).flat().length === 3, 3000, 'three errors')
    const errors = c.got.slice(2).flat() as Message[]
    assert.equal(errors.map((m) => [(m.data as { error: string }).error, m.seq]), [['invalid_json', 5], ['invalid_json', 6], ['invalid_message', 7]])
    c.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('tp_b: answers and broadcasts of one turn keep their order and numbers, split where a batch would pass the limit of the client', async () => {
  const { server, port } = await serve('sessions', 'app')
  try {
    const c = await connectRaw(port, '?tp_v=1&tp_b=240')
    await eventually(() => c.got.length === 1, 3000, 'the session message')
    c.ws.send(JSON.stringify({ event: 'join', data: 'r', id: 1 }))
    await eventually(() => c.got.length === 2, 3000, 'the join ack')
    assert.equal((c.got[1] as Message).seq, 1)
    await server.batch([
      ['broadcast', 'hello', 'a', { room: 'r' }],
      ['broadcast', 'hello', 'b', { room: 'r' }],
      ['broadcast', 'hello', 'c', { room: 'r' }],
    ])
    await eventually(() => c.got.slice(2).flat().length === 3, 3000, 'three broadcasts')
    // Each numbered text is 37 characters, counted 3 × 37 + 1 = 112 bytes: two in 240 (with the brackets), not three.
    assert.equal(
      c.got.slice(2).map((m) => (Array.isArray(m) ? (m as Message[]).map((e) => e.seq) : (m as Message).seq)),
      [[2, 3], 4],
    )
    c.ws.close()
  } finally {
    await server.close()
  }
})

Sessions('without tp_b a batch is one message, refused as before (invalid_json), and answers come one per message', async () => {
  const { server, port } = await serve('sessions', 'app')
  try {
    const c = await connectRaw(port, '?tp_v=1')
    await eventually(() => c.got.length === 1, 3000, 'the session message')
    assert.is((c.got[0] as Message).data && 'batch' in ((c.got[0] as Message).data as object), false)
    c.ws.send(`${JSON.stringify({ event: 'count', id: 1 })}\x1e${JSON.stringify({ event: 'count', id: 9 })}`)
    c.ws.send(JSON.stringify({ event: 'count', id: 2 }))
    c.ws.send(JSON.stringify({ event: 'count', id: 3 }))
    await eventually(() => c.got.length === 4, 3000, 'three answers')
    assert.equal((c.got.slice(1) as Message[]).map((m) => [m.event, m.seq]), [['error', 1], ['ack', 2], ['ack', 3]])
    c.ws.close()
  } finally {
    await server.close()
  }
})

Sessions.run()

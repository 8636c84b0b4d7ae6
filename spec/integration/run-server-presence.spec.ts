/**
 * Presence on one node with real sockets (issue 28): keys with several connections, their
 * metadata, the diffs in order to a subscriber and to the room's clients, the list on demand,
 * a client's entries gone with it. The app (spec/integration/fixtures/presence.ts) is served
 * by the runtime TWINPORT_TARGET names.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import WebSocket from 'ws'
import type { PresenceDiff } from '../../lib/core/presence/presence.js'
import { serve } from '../support/fixture-server.js'
import { eventually } from '../support/server.js'

interface Message {
  readonly event: string
  readonly data?: unknown
  readonly id?: unknown
}

const open = (port: number, query: string): Promise<{ ws: WebSocket; got: Message[] }> =>
  new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/?${query}`)
    const got: Message[] = []
    ws.on('message', (data: Buffer) => got.push(JSON.parse(data.toString()) as Message))
    ws.once('open', () => resolve({ ws, got }))
    ws.once('error', reject)
  })

// A diff as a line: `+ada/phone -bob/web [joined ada] [left bob]`.
const line = (d: PresenceDiff): string =>
  [
    ...d.leaves.map((c) => `-${c.key}/${(c.meta as { device: string }).device}`),
    ...d.joins.map((c) => `+${c.key}/${(c.meta as { device: string }).device}`),
    ...d.joined.map((k) => `[joined ${k}]`),
    ...d.left.map((k) => `[left ${k}]`),
  ].join(' ')

const Presence = suite('runServer :: presence')

Presence('keys with several connections: diffs in order to subscribers and the room, the list, leaving with the last connection', async () => {
  const { server, port } = await serve('presence', 'app')
  try {
    const phone = await open(port, 'user=ada&device=phone')
    await eventually(async () => (await server.probe('diffs')).length === 1, 3000, 'the first diff')
    const laptop = await open(port, 'user=ada&device=laptop')
    await eventually(async () => (await server.probe('diffs')).length === 2, 3000, 'the second diff')
    const bob = await open(port, 'user=bob')
    await eventually(async () => (await server.probe('diffs')).length === 3, 3000, 'the third diff')
    assert.is(await server.probe('count'), 2)

    bob.ws.send(JSON.stringify({ event: 'who', id: 1 }))
    await eventually(() => bob.got.some((m) => m.id === 1), 3000, 'the list')
    const list = bob.got.find((m) => m.id === 1)?.data as Record<string, { metas: { ref: string; meta: unknown }[] }>
    assert.equal(Object.keys(list).sort(), ['ada', 'bob'])
    assert.equal(list['ada']?.metas.map((m) => m.meta), [{ device: 'phone' }, { device: 'laptop' }])
    assert.ok(list['bob']?.metas[0]?.ref.startsWith('local/'))

    laptop.ws.send(JSON.stringify({ event: 'rename', data: 'tablet', id: 2 }))
    await eventually(async () => (await server.probe('diffs')).length === 4, 3000, 'the meta change')
    laptop.ws.close()
    await eventually(async () => (await server.probe('diffs')).length === 5, 3000, 'the laptop gone')
    phone.ws.close()
    await eventually(async () => (await server.probe('diffs')).length === 6, 3000, 'ada gone')
    assert.equal((await server.probe('diffs')).map(line), [
      '+ada/phone [joined ada]',
      '+ada/laptop',
      '+bob/web [joined bob]',
      '-ada/laptop +ada/tablet',
      '-ada/tablet',
      '-ada/phone [left ada]',
    ])
    assert.is(await server.probe('count'), 1)
    // The room's clients got the same diffs as events, from the moment they were in it (the
    // last one may still be on its way when the server's probe answers).
    await eventually(() => bob.got.filter((m) => m.event === 'presence_diff').length === 4, 3000, 'the last diff at bob')
    const seen = bob.got.filter((m) => m.event === 'presence_diff').map((m) => line(m.data as PresenceDiff))
    assert.equal(seen, ['+bob/web [joined bob]', '-ada/laptop +ada/tablet', '-ada/tablet', '-ada/phone [left ada]'])
    bob.ws.close()
  } finally {
    await server.close()
  }
})

Presence.run()

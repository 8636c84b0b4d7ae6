/**
 * A hub woken from hibernation, for real on workerd: the example Worker with test-only routes
 * (fixtures/evictable-worker.ts) is served with workerd's `workerd:unsafe` module, which evicts
 * the running Durable Objects as the runtime does an idle one: the instance is dropped, its
 * hibernatable WebSockets stay connected, and the next event constructs a new instance that has
 * only `getWebSockets()` and the sockets' attachments to go on. After each eviction the spec
 * checks that a new instance was made and that client ids, client data (the handshake's and
 * `setClientData`'s), rooms, broadcasts from sockets and from HTTP, new clients' ids and the
 * disconnect hook all still work. Skipped, with the reason, only when workerd cannot run here.
 */
import { suite } from 'uvu'
import * as assert from 'uvu/assert'
import { delay, openClient, type TestClient } from '../support/server.js'
import { startWorkerd, type Workerd, workerdRuns } from '../support/workerd.js'

const Wake = suite<{ workerd?: Workerd }>('a Durable Object hub woken from hibernation (workerd)', {})
const unable = await workerdRuns()

type Message = { event: string; data?: unknown; id?: unknown }

const answerOf = async (client: TestClient, id: number): Promise<Message> => {
  for (;;) {
    const message = await client.nextJson(5000)
    if (message.id === id) return message
  }
}

const eventOf = async (client: TestClient, event: string): Promise<Message> => {
  for (;;) {
    const message = await client.nextJson(5000)
    if (message.event === event) return message
  }
}

if (unable !== undefined) {
  Wake('skipped: workerd cannot run on this machine', () => console.log(`[workers] skipped: ${unable}`))
} else {
  Wake.before(async (context) => {
    context.workerd = await startWorkerd('spec/workers/fixtures/evictable-worker.ts', 'CountingHub', { unsafe: true })
  })
  Wake.after(async (context) => {
    await context.workerd?.stop()
  })

  Wake('after an eviction a new instance serves the same sockets: ids, data, rooms, broadcasts, new ids, disconnects', async ({ workerd }) => {
    const { port, url } = workerd as Workerd
    const constructed = async (): Promise<number> => ((await (await fetch(`${url}/__test/hubs`)).json()) as { constructed: number }).constructed
    const evict = async (): Promise<void> => {
      const res = await fetch(`${url}/__test/evict`, { method: 'POST' })
      assert.is(res.status, 200, `${await res.clone().text()}\n${workerd?.output() ?? ""}`)
    }
    const clients: TestClient[] = []
    const join = async (user: string): Promise<{ client: TestClient; id: number }> => {
      const client = await openClient(port, `/chat?user=${user}`)
      clients.push(client)
      return { client, id: ((await eventOf(client, 'welcome')).data as { id: number }).id }
    }
    try {
      const ada = await join('ada')
      const bob = await join('bob')
      const cy = await join('cy')
      ada.client.emit('join', { room: 'r' }, 1)
      await answerOf(ada.client, 1)
      bob.client.emit('join', { room: 'r' }, 1)
      await answerOf(bob.client, 1)
      ada.client.emit('note', 'kept', 2)
      await answerOf(ada.client, 2)
      const before = await constructed()

      await evict()
      // The next message wakes the hub: a new instance, rebuilt from the sockets' attachments.
      ada.client.emit('my-note', null, 3)
      assert.equal(await answerOf(ada.client, 3), { event: 'ack', id: 3, data: 'kept' })
      assert.is(await constructed(), before + 1, 'a new instance was constructed')
      ada.client.emit('whoami', null, 4)
      assert.equal(await answerOf(ada.client, 4), { event: 'ack', id: 4, data: { id: ada.id, user: 'ada', path: '/chat' } })
      bob.client.emit('say', { room: 'r', text: 'after the wake' }, 2)
      const said = { event: 'said', data: { room: 'r', text: 'after the wake', user: 'bob' } }
      assert.equal(await eventOf(ada.client, 'said'), said)
      assert.equal(await eventOf(bob.client, 'said'), said)

      // Woken by a broadcast from HTTP this time: the room is rebuilt in the new instance too.
      await evict()
      const posted = await fetch(`${url}/rooms/r/messages`, { method: 'POST', body: '{"text":"via http"}', headers: { 'content-type': 'application/json' } })
      assert.is(posted.status, 202)
      const fromHttp = { event: 'said', data: { room: 'r', text: 'via http', user: 'http' } }
      assert.equal(await eventOf(ada.client, 'said'), fromHttp)
      assert.equal(await eventOf(bob.client, 'said'), fromHttp)
      assert.is(await constructed(), before + 2)

      // Woken by an upgrade: the new client's id follows the held ones.
      await evict()
      const dee = await join('dee')
      assert.ok(![ada.id, bob.id, cy.id].includes(dee.id), `a fresh id (${dee.id})`)
      assert.ok(dee.id > Math.max(ada.id, bob.id, cy.id))

      // Woken by a close: the disconnect hook runs with the client's data, for the others of the hub.
      await evict()
      ada.client.ws.close()
      assert.equal((await eventOf(bob.client, 'left')).data, { id: ada.id, user: 'ada' })
      await delay(200)
      const heard = cy.client.pending.map((m) => JSON.parse(m.toString()) as Message).filter((m) => m.event === 'said')
      assert.equal(heard, [], 'cy was never in room r')
    } finally {
      for (const client of clients) client.ws.close()
    }
  })
}

Wake.run()

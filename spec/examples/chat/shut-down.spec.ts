/** `shutDown`: the demo's graceful stop logs what it drains, then how many it closed and how long it took. */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { type LogEntry, makeLogger } from '../../../lib/index.js'
import { shutDown } from '../../../examples/chat/shut-down.js'
import { connect, startTestChat } from './chat-client.js'

test('shutDown :: logs the start of the drain with the open connections by type, and its end', async () => {
  const entries: LogEntry[] = []
  const chat = await startTestChat({ logger: makeLogger((e) => entries.push(e), 'info') })
  const clients = [await connect(chat), await connect(chat)]
  const closed = Promise.all(clients.map((c) => c.closed()))
  const times = [1000, 1042]
  await shutDown(chat, 'SIGINT', () => times.shift() ?? 0)
  assert.equal(await closed, [1001, 1001])
  const drain = entries.filter((e) => e.message.startsWith('chat demo:'))
  assert.equal(
    drain.map((e) => [e.level, e.message, e.context]),
    [
      ['info', 'chat demo: {signal}: draining {websockets} WebSocket and {http} HTTP connections', { signal: 'SIGINT', websockets: 2, http: 0 }],
      ['info', 'chat demo: drained: {closed} connections closed in {ms} ms', { closed: 2, ms: 42 }],
    ],
  )
})

test.run()

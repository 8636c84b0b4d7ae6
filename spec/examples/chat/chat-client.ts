/**
 * Test helpers for the chat demo: start it on an ephemeral 127.0.0.1 port, and a `ws`
 * client that keeps every event it receives so a test can wait for the next one that
 * matches (each wait bounded). Not a spec file.
 */
import WebSocket from 'ws'
import { type ServerHandle, silentLogger } from '../../../lib/index.js'
import { type ChatOptions, startChat } from '../../../examples/chat/start-chat.js'

export const WAIT_MS = 5_000

/** One event as received. */
export interface Received {
  readonly event: string
  readonly data: any
  readonly id?: number | string
}

export interface ChatClient {
  readonly ws: WebSocket
  /** Sends an event with a fresh id; resolves with the ack's data, or the error event's data. */
  request(event: string, data: unknown): Promise<any>
  /** Sends an event without an id. */
  send(event: string, data: unknown): void
  /** The next not-yet-taken event matching; rejects after WAIT_MS. */
  next(event: string, match?: (data: any) => boolean): Promise<any>
  /** Events received and not taken by `next`/`request`. */
  pending(): readonly Received[]
  /** Resolves with the close code once the connection is closed. */
  closed(): Promise<number>
  close(): Promise<void>
}

export const chatUrl = (chat: ServerHandle): string => `http://127.0.0.1:${chat.address.port}`

/** The chat on 127.0.0.1 and a free port, silent, with a fixed clock and no grace period. */
export const startTestChat = (options: ChatOptions = {}): Promise<ServerHandle> =>
  startChat({ host: '127.0.0.1', port: 0, logger: silentLogger, now: () => new Date('2026-01-02T03:04:05Z'), graceMs: 0, ...options })

/**
 * Resolves once the server has at most `stillOpen` WebSocket clients and has run the others'
 * `onDisconnect` handlers, so the next step can take their names (bounded by WAIT_MS).
 */
export const settle = async (chat: ServerHandle, stillOpen = 0): Promise<void> => {
  const deadline = Date.now() + WAIT_MS
  while (chat.clients().filter((c) => c.type === 'ws').length > stillOpen) {
    if (Date.now() > deadline) throw new Error(`WebSocket clients still connected after ${WAIT_MS} ms`)
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  await new Promise((resolve) => setImmediate(resolve))
}

/** Connects a client (with `origin` it acts like a browser page of that origin). */
export const connect = async (chat: ServerHandle, origin?: string): Promise<ChatClient> => {
  const ws = new WebSocket(`ws://127.0.0.1:${chat.address.port}/`, origin === undefined ? {} : { origin })
  const inbox: Received[] = []
  const waiters: { pick: (r: Received) => boolean; resolve: (r: Received) => void }[] = []
  let closeCode: number | undefined
  const onClose: ((code: number) => void)[] = []
  let nextId = 1

  ws.on('message', (raw) => {
    const received = JSON.parse(String(raw)) as Received
    const at = waiters.findIndex((w) => w.pick(received))
    if (at < 0) return void inbox.push(received)
    const [waiter] = waiters.splice(at, 1)
    waiter?.resolve(received)
  })
  ws.on('close', (code) => {
    closeCode = code
    for (const f of onClose.splice(0)) f(code)
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
  })

  const take = (pick: (r: Received) => boolean, what: string): Promise<Received> => {
    const at = inbox.findIndex(pick)
    if (at >= 0) return Promise.resolve(inbox.splice(at, 1)[0] as Received)
    return new Promise((resolve, reject) => {
      const waiter = {
        pick,
        resolve: (r: Received) => {
          clearTimeout(timer)
          resolve(r)
        },
      }
      const timer = setTimeout(() => {
        waiters.splice(waiters.indexOf(waiter), 1)
        reject(new Error(`no ${what} within ${WAIT_MS} ms; pending: ${JSON.stringify(inbox)}`))
      }, WAIT_MS)
      waiters.push(waiter)
    })
  }

  return {
    ws,
    request: async (event, data) => {
      const id = nextId++
      ws.send(JSON.stringify({ event, data, id }))
      const answer = await take((r) => (r.event === 'ack' || r.event === 'error') && r.id === id, `answer to ${event}#${id}`)
      return answer.data
    },
    send: (event, data) => ws.send(JSON.stringify({ event, data })),
    next: async (event, match = () => true) => (await take((r) => r.event === event && match(r.data), `"${event}" event`)).data,
    pending: () => [...inbox],
    closed: () =>
      closeCode !== undefined
        ? Promise.resolve(closeCode)
        : new Promise((resolve, reject) => {
            const timer = setTimeout(() => reject(new Error(`not closed within ${WAIT_MS} ms`)), WAIT_MS)
            onClose.push((code) => {
              clearTimeout(timer)
              resolve(code)
            })
          }),
    close: async () => {
      if (ws.readyState === WebSocket.CLOSED) return
      const done = new Promise<void>((resolve) => ws.once('close', () => resolve()))
      ws.close(1000)
      await done
    },
  }
}

/** A client that has said hello as `name` and joined `rooms`. */
export const member = async (chat: ServerHandle, name: string, ...rooms: string[]): Promise<ChatClient> => {
  const client = await connect(chat)
  await client.request('hello', { name })
  for (const room of rooms) await client.request('join', { room })
  return client
}

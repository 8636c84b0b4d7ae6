/**
 * A middlebox that breaks WebSocket, for the specs of the client's fallback (issue 23): every
 * connection's first request is looked at; an `Upgrade` gets what `mode` says (403, no answer
 * at all, or passed on), anything else is piped to the server as it came. It keeps the head of
 * every request it passed, keep-alive ones included (to see what a reconnecting client sent,
 * e.g. its `Last-Event-ID`), and `cut` drops every connection it carries, as a broken network
 * would. Specs only.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

/** What the proxy does with an upgrade: refuse it (403), swallow it (no answer), or pass it. */
export type UpgradeMode = 'refuse' | 'hang' | 'pass'

export interface UpgradeProxy {
  readonly port: number
  mode: UpgradeMode
  /** Where the next connections go. */
  pointAt(port: number): void
  /** How many upgrades it refused or swallowed. */
  readonly blocked: number
  /** The head of each request passed on (request line and fields), oldest first. */
  readonly passed: readonly string[]
  /** Ends every connection now (both sides destroyed). */
  cut(): void
  close(): Promise<void>
}

// Request heads in a piece of what a client sent (a head is short: it comes in one piece).
const HEAD = /(?:^|\r\n\r\n)((?:GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS) \S+ HTTP\/1\.1\r\n[\s\S]*?)(?=\r\n\r\n)/g

/** A proxy on 127.0.0.1 in front of the server on `target`. */
export const startUpgradeProxy = (target: number, mode: UpgradeMode): Promise<UpgradeProxy> =>
  new Promise((resolve, reject) => {
    let to = target
    const open = new Set<Socket>()
    const passed: string[] = []
    const cut = (): void => {
      for (const socket of open) socket.destroy()
      open.clear()
    }
    const proxy: { -readonly [K in keyof UpgradeProxy]: UpgradeProxy[K] } = {
      port: 0,
      mode,
      blocked: 0,
      passed,
      pointAt: (p) => void (to = p),
      cut,
      close: async () => undefined,
    }
    const server: Server = createServer((front) => {
      open.add(front)
      front.on('error', () => front.destroy()).on('close', () => open.delete(front))
      front.once('data', (first: Buffer) => {
        const head = first.toString('latin1').split('\r\n\r\n')[0] ?? ''
        if (/\r\nupgrade:/i.test(head) && proxy.mode !== 'pass') {
          proxy.blocked++
          if (proxy.mode === 'refuse') front.end('HTTP/1.1 403 Forbidden\r\ncontent-length: 0\r\nconnection: close\r\n\r\n')
          return
        }
        const record = (chunk: Buffer): void => {
          for (const m of chunk.toString('latin1').matchAll(HEAD)) passed.push(m[1] as string)
        }
        record(first)
        front.on('data', record)
        const back = connect(to, '127.0.0.1')
        open.add(back)
        const end = (): void => {
          front.destroy()
          back.destroy()
          open.delete(back)
        }
        back.on('error', end).on('close', end)
        front.on('close', end)
        back.write(first)
        front.pipe(back)
        back.pipe(front)
      })
    })
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      proxy.port = typeof address === 'object' && address !== null ? address.port : 0
      proxy.close = () =>
        new Promise<void>((done) => {
          cut()
          server.close(() => done())
        })
      resolve(proxy)
    })
  })

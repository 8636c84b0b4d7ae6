/**
 * A small TCP forwarder, like a load balancer in front of a cluster: every connection it
 * accepts on 127.0.0.1 is piped to the node it points at when the connection starts
 * (`pointAt` changes that for the next ones). `cut` drops every connection it carries, as a
 * dead node's or a broken network's would end. Specs only.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** Where the next connections go. */
  pointAt(port: number): void
  /** Ends every connection now (both sides destroyed). */
  cut(): void
  close(): Promise<void>
}

export const startProxy = (target: number): Promise<TcpProxy> =>
  new Promise((resolve, reject) => {
    let to = target
    const open = new Set<Socket>()
    const server: Server = createServer((front) => {
      const back = connect(to, '127.0.0.1')
      open.add(front).add(back)
      const end = (): void => {
        front.destroy()
        back.destroy()
        open.delete(front)
        open.delete(back)
      }
      front.on('error', end).on('close', end)
      back.on('error', end).on('close', end)
      front.pipe(back)
      back.pipe(front)
    })
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      const cut = (): void => {
        for (const socket of open) socket.destroy()
        open.clear()
      }
      resolve({
        port,
        pointAt: (p) => void (to = p),
        cut,
        close: () =>
          new Promise<void>((done) => {
            cut()
            server.close(() => done())
          }),
      })
    })
  })

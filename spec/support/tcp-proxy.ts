/**
 * A small TCP forwarder, like a load balancer in front of a cluster: every connection it
 * accepts on 127.0.0.1 is piped to the node it points at when the connection starts
 * (`pointAt` changes that for the next ones). `cut` drops every connection it carries, as a
 * dead node's or a broken network's would end; `partition` blackholes what it carries until
 * healed (then cuts it, as after a partition whose connections timed out). Specs only.
 */
import { connect, createServer, type Server, type Socket } from 'node:net'

export interface TcpProxy {
  readonly port: number
  /** Where the next connections go. */
  pointAt(port: number): void
  /** Ends every connection now (both sides destroyed). */
  cut(): void
  /**
   * True: every byte either way is swallowed and new connections are accepted and never
   * answered (a partition: the peers see no error); false: healed, and what was held through
   * it is cut.
   */
  partition(on: boolean): void
  close(): Promise<void>
}

export const startProxy = (target: number): Promise<TcpProxy> =>
  new Promise((resolve, reject) => {
    let to = target
    const open = new Set<Socket>()
    let blackhole = false
    // One direction, dropped while partitioned (no back-pressure: specs move little).
    const forward = (from: Socket, to: Socket): void => {
      from.on('data', (chunk: Buffer) => {
        if (!blackhole && !to.destroyed) to.write(chunk)
      })
    }
    const server: Server = createServer((front) => {
      if (blackhole) {
        open.add(front)
        front.on('error', () => undefined).on('close', () => open.delete(front))
        return
      }
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
      forward(front, back)
      forward(back, front)
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
        partition: (on) => {
          if (!on && blackhole) cut()
          blackhole = on
        },
        close: () =>
          new Promise<void>((done) => {
            cut()
            server.close(() => done())
          }),
      })
    })
  })

/**
 * A fault-injecting TCP proxy for the soak (`bench/soak.ts`), in user space: used between a
 * cluster node and Redis where the machine has no `tc netem` (see `netemAvailable`). Every
 * connection it accepts on 127.0.0.1 is piped to the target, each chunk delayed by
 * `latencyMs` ± `jitterMs` (chunks of one direction stay in order, one queue each: TCP cannot
 * reorder, so jitter delays the stream, it never reorders it); `stall(ms)` holds everything for that
 * long (what a lossy link's retransmissions look like to TCP); `cut()` destroys every
 * connection (a reset); `partition(true)` blackholes: bytes are swallowed and new
 * connections hang unanswered until `partition(false)`, then are cut, as after a healed
 * partition whose TCP connections timed out. Node only (node:net).
 */
import { spawnSync } from 'node:child_process'
import { connect, createServer, type Socket } from 'node:net'

export interface FaultProxy {
  readonly port: number
  /** Delay per chunk and its spread (uniform ±), both ms. */
  shape(latencyMs: number, jitterMs: number): void
  /** Holds every byte for `ms` from now. */
  stall(ms: number): void
  /** Destroys every connection it carries. */
  cut(): void
  /** Blackholes (true) or heals (false): on healing, connections held through it are cut. */
  partition(on: boolean): void
  /** Connections carried now, and bytes forwarded so far. */
  stats(): { readonly open: number; readonly bytes: number; readonly swallowed: number }
  close(): Promise<void>
}

/**
 * Whether `tc qdisc … netem` works here; answers the reason when it does not (the soak
 * prints it and uses this proxy instead). Tries it inside a throwaway network namespace.
 */
export const netemAvailable = (): { readonly ok: boolean; readonly reason: string } => {
  const ns = `tpsoak${process.pid}`
  const add = spawnSync('ip', ['netns', 'add', ns], { encoding: 'utf8' })
  if (add.error !== undefined || add.status !== 0) return { ok: false, reason: `ip netns add: ${add.error?.message ?? add.stderr.trim()}` }
  try {
    spawnSync('ip', ['-n', ns, 'link', 'set', 'lo', 'up'])
    const tc = spawnSync('ip', ['netns', 'exec', ns, 'tc', 'qdisc', 'add', 'dev', 'lo', 'root', 'netem', 'delay', '1ms'], { encoding: 'utf8' })
    if (tc.error !== undefined || tc.status !== 0) return { ok: false, reason: `ip netns works, tc netem does not: ${tc.error?.message ?? tc.stderr.trim()}` }
    return { ok: true, reason: 'ip netns and tc netem work' }
  } finally {
    spawnSync('ip', ['netns', 'del', ns])
  }
}

export const startFaultProxy = (target: number): Promise<FaultProxy> =>
  new Promise((resolve, reject) => {
    const open = new Set<Socket>()
    let latency = 0
    let jitter = 0
    let stalledUntil = 0
    let blackhole = false
    let bytes = 0
    let swallowed = 0
    const delay = (): number => Math.max(0, latency + (jitter === 0 ? 0 : (Math.random() * 2 - 1) * jitter), stalledUntil - Date.now())

    // One direction: chunks leave in order, each no earlier than its own delay. One queue and
    // one timer per direction: a timer per chunk does not keep them in order (Node starts every
    // timer of a turn from the same cached clock, so a later chunk whose delay was computed
    // from a later Date.now() fired first, and reordered bytes inside a TCP stream: session 13,
    // bench/RESULTS.md "Session 13: sessions after a partition").
    const pipe = (from: Socket, to: Socket): void => {
      const queue: { readonly chunk: Buffer; readonly due: number }[] = []
      let timer: ReturnType<typeof setTimeout> | undefined
      const drain = (): void => {
        timer = undefined
        for (let next = queue[0]; next !== undefined; next = queue[0]) {
          const wait = next.due - Date.now()
          if (wait > 0) return void (timer = setTimeout(drain, wait))
          queue.shift()
          if (blackhole) swallowed += next.chunk.length
          else {
            bytes += next.chunk.length
            if (!to.destroyed) to.write(next.chunk)
          }
        }
      }
      from.on('data', (chunk: Buffer) => {
        if (blackhole) return void (swallowed += chunk.length)
        const last = queue[queue.length - 1]?.due ?? 0
        queue.push({ chunk, due: Math.max(Date.now() + delay(), last) })
        if (timer === undefined) drain()
      })
      from.on('close', () => {
        if (timer !== undefined) clearTimeout(timer)
        timer = undefined
        queue.length = 0
      })
    }

    const server = createServer((front) => {
      open.add(front)
      front.on('error', () => undefined).on('close', () => open.delete(front))
      if (blackhole) return // accepted and never answered: the node's connect hangs
      const back = connect(target, '127.0.0.1')
      open.add(back)
      const end = (): void => {
        front.destroy()
        back.destroy()
        open.delete(front)
        open.delete(back)
      }
      front.on('close', end)
      back.on('error', end).on('close', end)
      pipe(front, back)
      pipe(back, front)
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
        shape: (l, j) => {
          latency = l
          jitter = j
        },
        stall: (ms) => void (stalledUntil = Date.now() + ms),
        cut,
        partition: (on) => {
          if (!on && blackhole) cut()
          blackhole = on
        },
        stats: () => ({ open: open.size, bytes, swallowed }),
        close: () =>
          new Promise<void>((done) => {
            cut()
            server.close(() => done())
          }),
      })
    })
  })

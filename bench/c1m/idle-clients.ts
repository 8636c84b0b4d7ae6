/**
 * The idle load of bench/c1m: several `wsload --mode idle` processes (bench/c1m/wsload.c),
 * each under the open-file limit and on a 127.x.y.z source address of its own, driven over
 * their stdin/stdout line protocol (stat, send, wait, more, quit). Node only; loopback only.
 * Must not import the driver (bench/c1m/run.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'

/** One client process's counters, from its `STAT` line. */
export interface ClientStat {
  readonly open: number
  readonly failed: number
  readonly closed: number
  readonly recv: number
  readonly pings: number
  /** CLOCK_MONOTONIC ns of the last data message received (0: none yet) */
  readonly last: number
}

/** A running wsload process. */
export interface IdleClient {
  readonly pid: number
  readonly conns: number
  /** its latest PROGRESS/READY counts */
  readonly progress: { open: number; failed: number; ready: boolean }
  stat(): Promise<ClientStat>
  /** sends one broadcast message; the CLOCK_MONOTONIC ns it was written at */
  send(): Promise<number>
  /**
   * Resolves once the client's received data messages reach `recv` (its own count), with that
   * count and the CLOCK_MONOTONIC ns of the latest; `undefined` after `timeoutMs` or when the
   * client is gone. The client tells; nobody polls it.
   */
  waitFor(recv: number, timeoutMs: number): Promise<{ readonly recv: number; readonly last: number } | undefined>
  /** started with `first` < `conns`: opens the rest (progress.ready turns false until they are) */
  more(): void
  stop(): void
}

const fields = (line: string): Record<string, number> =>
  Object.fromEntries([...line.matchAll(/(\w+)=(-?[\d.]+)/g)].map((m) => [m[1] as string, Number(m[2])]))

/**
 * The `index`-th source address of a run: 127.31.a.b, never .0 or .255, never 127.0.0.1
 * (other programs' ephemeral ports live there). Each gets its own ~28,000 ephemeral ports.
 */
export const sourceAddress = (index: number): string => `127.31.${1 + Math.floor(index / 250)}.${1 + (index % 250)}`

/** How to start a client beyond its counts. */
export interface IdleClientOptions {
  /** open only this many at first, the rest on `more()` (default: all) */
  readonly first?: number
  /** a command and arguments to run the binary under (`['taskset', '-c', '1']`) */
  readonly wrap?: readonly string[]
}

/** Starts one wsload idle client of `conns` connections from `src` (addresses, comma-separated, used in turn) to `port`'s `/bcast`. */
export const startIdleClient = (binary: string, port: number, conns: number, src: string, concurrency: number, deadlineMs: number, options: IdleClientOptions = {}): IdleClient => {
  const args = ['--mode', 'idle', '--port', String(port), '--conns', String(conns), '--src', src,
    '--concurrency', String(concurrency), '--deadline', String(deadlineMs), ...(options.first === undefined ? [] : ['--first', String(options.first)])]
  const [command, ...before] = [...(options.wrap ?? []), binary]
  const child: ChildProcess = spawn(command as string, [...before, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
  const progress = { open: 0, failed: 0, ready: false }
  const waiting: { prefix: string; resolve: (line: string) => void }[] = []
  createInterface({ input: child.stdout! }).on('line', (line) => {
    if (line.startsWith('PROGRESS') || line.startsWith('READY')) {
      const f = fields(line)
      progress.open = f.open ?? 0
      progress.failed = f.failed ?? 0
      progress.ready = line.startsWith('READY')
      return
    }
    const at = waiting.findIndex((w) => line.startsWith(w.prefix))
    if (at >= 0) waiting.splice(at, 1)[0]?.resolve(line)
  })
  child.on('exit', () => {
    progress.ready = true
    for (const w of waiting.splice(0)) w.resolve('')
  })
  const ask = (command: string, prefix: string): Promise<string> =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.stdin?.writable !== true) return resolve('')
      waiting.push({ prefix, resolve })
      child.stdin.write(`${command}\n`)
    })
  return {
    pid: child.pid ?? 0,
    conns,
    progress,
    stat: async () => {
      const f = fields(await ask('stat', 'STAT'))
      return { open: f.open ?? 0, failed: f.failed ?? 0, closed: f.closed ?? 0, recv: f.recv ?? 0, pings: f.pings ?? 0, last: f.last ?? 0 }
    },
    send: async () => fields(await ask('send', 'SENT')).t ?? Number.NaN,
    waitFor: async (recv, timeoutMs) => {
      let timer: NodeJS.Timeout | undefined
      const late = new Promise<string>((resolve) => (timer = setTimeout(() => resolve(''), timeoutMs)))
      const got = ask(`wait ${recv}`, 'GOT')
      const line = await Promise.race([got, late])
      clearTimeout(timer)
      if (line === '') {
        // Late: a `wait 0` is answered at once, so the GOT awaited above is consumed, not left for the next caller.
        if (child.exitCode === null && child.stdin?.writable === true) child.stdin.write('wait 0\n')
        await got
        return undefined
      }
      const f = fields(line)
      return { recv: f.recv ?? 0, last: f.last ?? 0 }
    },
    more: () => {
      progress.ready = false
      child.stdin?.write('more\n')
    },
    stop: () => {
      if (child.exitCode === null) {
        child.stdin?.end('quit\n')
        setTimeout(() => child.kill('SIGKILL'), 3000).unref()
      }
    },
  }
}

/** The sum of every client's counters, and the latest receipt among them. */
export const sumStats = (stats: readonly ClientStat[]): ClientStat =>
  stats.reduce((a, s) => ({
    open: a.open + s.open, failed: a.failed + s.failed, closed: a.closed + s.closed,
    recv: a.recv + s.recv, pings: a.pings + s.pings, last: Math.max(a.last, s.last),
  }), { open: 0, failed: 0, closed: 0, recv: 0, pings: 0, last: 0 })

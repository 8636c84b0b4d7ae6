/**
 * `driveRequests`: the measuring loop of the acknowledged-request benches (client-acks.ts over
 * WebSocket, fallback-acks.ts over Server-Sent Events and polling): keeps `inFlight` requests
 * going on each client, counts the answers in a window after a warm-up, and answers the rate
 * with the server's and this process's CPU per request. One definition, so both benches
 * measure alike.
 */
import { CLK_TCK, processCpuTicks } from './proc.js'

/** One connected client as a bench drives it. */
export interface Driver {
  readonly request: () => Promise<unknown>
  readonly close: () => void
}

/** What one measured window gave. */
export interface RequestRun {
  readonly perSecond: number
  readonly serverCpuUs: number
  readonly clientCpuUs: number
}

export interface DriveOptions {
  readonly inFlight: number
  readonly warmupMs: number
  readonly measureMs: number
  /** The server's process, whose CPU is read from /proc. */
  readonly pid: number
  /** `true`: a request that fails ends its loop quietly (a transport that may drop requests). */
  readonly tolerateFailures?: boolean
}

/**
 * Drives `drivers` for the warm-up and the window, then closes them.
 *
 * @example
 * const run = await driveRequests(drivers, { inFlight: 10, warmupMs: 1000, measureMs: 4000, pid })
 * run.perSecond // answers per second in the window
 */
export const driveRequests = async (drivers: readonly Driver[], options: DriveOptions): Promise<RequestRun> => {
  let running = true
  let counting = false
  let answered = 0
  const loop = async (d: Driver): Promise<void> => {
    while (running) {
      await d.request()
      if (counting) answered += 1
    }
  }
  const loops = drivers.flatMap((d) =>
    Array.from({ length: options.inFlight }, () => (options.tolerateFailures === true ? loop(d).catch(() => undefined) : loop(d))),
  )
  await new Promise((r) => setTimeout(r, options.warmupMs))
  const cpu0 = process.cpuUsage()
  const server0 = processCpuTicks(options.pid) ?? 0
  const t0 = performance.now()
  counting = true
  await new Promise((r) => setTimeout(r, options.measureMs))
  counting = false
  const ms = performance.now() - t0
  const server1 = processCpuTicks(options.pid) ?? 0
  const cpu = process.cpuUsage(cpu0)
  const n = answered
  running = false
  // The loops end with the answers still in flight; then the clients go.
  await Promise.race([Promise.all(loops), new Promise((r) => setTimeout(r, 2000))])
  for (const d of drivers) d.close()
  return {
    perSecond: (n / ms) * 1000,
    serverCpuUs: (((server1 - server0) / CLK_TCK) * 1e6) / Math.max(1, n),
    clientCpuUs: (cpu.user + cpu.system) / Math.max(1, n),
  }
}

/**
 * One measured run of a fetch-handler server for the embedding benches (`embed-fetch.ts`,
 * `deno-shapes.ts`): start the command (it prints `PORT <n>`), check `GET /hello` answers
 * `{"hello":"world"}`, warm up 1 s with `wrk -t1 -c50`, then measure `seconds` of keep-alive
 * load: requests per second, and the server process's own CPU time per request (utime + stime
 * from `/proc/<pid>/stat` across the window, all its threads), a figure the machine's load
 * moves far less than the rate. The server is killed whatever happens. Bench code.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { CLK_TCK, processCpuTicks } from '../load/proc.js'
import { parseWrk } from '../load/wrk-output.js'

/** What one run measured. */
export interface ContenderRun {
  readonly rate: number
  /** Server CPU time per request over the measured window, in µs. */
  readonly cpuMicros: number
}

/** Starts `command` (it prints `PORT <n>`); rejects after 60 s without a port. */
export const start = (command: readonly string[]): Promise<{ child: ChildProcess; port: number }> =>
  new Promise((resolve, reject) => {
    const [file, ...args] = command
    const child = spawn(file!, args, { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'inherit'] })
    const timer = setTimeout(() => (child.kill('SIGKILL'), reject(new Error(`${command.join(' ')} did not start in 60 s`))), 60_000)
    child.stdout?.on('data', (chunk: Buffer) => {
      const port = /PORT (\d+)/.exec(chunk.toString())?.[1]
      if (port === undefined) return
      clearTimeout(timer)
      resolve({ child, port: Number(port) })
    })
    child.once('error', (error) => (clearTimeout(timer), reject(error)))
    child.once('exit', (code) => (clearTimeout(timer), reject(new Error(`${command.join(' ')} exited with ${code}`))))
  })

/** Kills the server and waits for it to exit. */
export const stop = (child: ChildProcess): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve()
    child.once('exit', () => resolve())
    child.kill('SIGKILL')
  })

/** `wrk -t1 -c50` on `GET /hello` for `seconds`; rejects on a non-2xx answer. */
export const wrk = (port: number, seconds: number): Promise<{ requests: number; rate: number }> =>
  new Promise((resolve, reject) =>
    execFile('wrk', ['-t1', '-c50', `-d${seconds}s`, `http://127.0.0.1:${port}/hello`], { timeout: (seconds + 20) * 1000 }, (error, stdout) => {
      if (error !== null) return reject(error)
      const result = parseWrk(stdout)
      if (result === undefined || result.non2xx > 0) return reject(new Error(`wrk: ${stdout}`))
      resolve({ requests: result.requests, rate: result.requestsPerSecond })
    }),
  )

/**
 * Runs `command` as a server and measures it for `seconds`.
 *
 * @example
 * const { rate, cpuMicros } = await runFetchContender(['node_modules/deno/deno', 'run', '-A', 'server.ts'], 3)
 */
export const runFetchContender = async (command: readonly string[], seconds: number): Promise<ContenderRun> => {
  let server: { child: ChildProcess; port: number } | undefined
  try {
    server = await start(command)
    const check = await fetch(`http://127.0.0.1:${server.port}/hello`)
    const text = await check.text()
    if (text !== '{"hello":"world"}') throw new Error(`${command.join(' ')}: unexpected answer ${text}`)
    await wrk(server.port, 1) // warm-up
    const pid = server.child.pid!
    const before = processCpuTicks(pid) ?? NaN
    const run = await wrk(server.port, seconds)
    const after = processCpuTicks(pid) ?? NaN
    return { rate: run.rate, cpuMicros: (((after - before) / CLK_TCK) * 1e6) / run.requests }
  } finally {
    if (server !== undefined) await stop(server.child)
  }
}

/** The median of `xs` (NaN when empty). */
export const median = (xs: readonly number[]): number => {
  if (xs.length === 0) return NaN
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 === 1 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

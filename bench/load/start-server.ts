/**
 * Starts one contender pinned to CPU 0 (`taskset -c 0`), with the file-descriptor
 * limit raised for 10,000 clients, on 127.0.0.1 and a free port; waits until the
 * port accepts connections. The pid is the server's own (bash and taskset exec
 * into node), so `/proc/<pid>` is the server.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { connect, createServer } from 'node:net'

/** A running contender. */
export interface RunningServer {
  readonly pid: number
  readonly port: number
  /** SIGTERM, then SIGKILL after 2 s; resolves once the process is gone. */
  readonly stop: () => Promise<void>
}

/** Every child the harness started and has not seen exit, killed if the harness exits early. */
export const LIVE = new Set<ChildProcess>()

/** `bash -c` prefix: raise the fd limit as far as allowed, then exec the pinned command. */
export const pinned = (cpu: number): string[] => [
  'bash', '-c', `ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec taskset -c ${cpu} "$@"`, 'pinned',
]

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const address = s.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      s.close(() => resolve(port))
    })
  })

const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port })
    s.once('connect', () => {
      s.destroy()
      resolve(true)
    })
    s.once('error', () => resolve(false))
  })

/** The lines of a crash that say what went wrong: the first error line, or the last lines. */
export const crashSummary = (stderr: string): string => {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '')
  const error = lines.find((l) => /^(\w*Error|error)\b|Error:|ERR_/.test(l))
  return (error ?? lines.slice(-3).join(' | ')).slice(0, 300)
}

/**
 * Starts `node --import tsx <script>` (plain `node <script>` for compiled `.js`) with
 * HOST=127.0.0.1 and PORT set; resolves
 * with the server, or with the reason it did not come up within `timeoutMs`
 * (its exit code and the tail of its stderr).
 */
export const startServer = async (
  script: string,
  timeoutMs = 20_000,
  nodeFlags: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
): Promise<RunningServer | string> => {
  const port = await freePort()
  const [cmd, ...pre] = pinned(0)
  const loader = script.endsWith('.js') ? [] : ['--import', 'tsx']
  const child = spawn(cmd!, [...pre, process.execPath, ...nodeFlags, ...loader, script], {
    env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port), NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  LIVE.add(child)
  let stderr = ''
  child.stderr?.on('data', (c: Buffer) => {
    stderr = (stderr + c.toString('utf8')).slice(-2000)
  })
  let exited: number | null | undefined
  const gone = new Promise<void>((resolve) => child.once('exit', (code) => {
    exited = code
    LIVE.delete(child)
    resolve()
  }))
  const stop = async (): Promise<void> => {
    if (exited !== undefined) return
    child.kill('SIGTERM')
    const timer = setTimeout(() => child.kill('SIGKILL'), 2000)
    await gone
    clearTimeout(timer)
  }
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (exited !== undefined) return `exited with code ${String(exited)} before listening: ${crashSummary(stderr)}`
    if (await accepts(port)) return { pid: child.pid ?? -1, port, stop }
    await new Promise((r) => setTimeout(r, 100))
  }
  await stop()
  return `did not accept connections on port ${port} within ${timeoutMs} ms: ${crashSummary(stderr)}`
}

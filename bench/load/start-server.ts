/**
 * Starts one contender pinned to CPU 0 (`taskset -c 0`), with the file-descriptor
 * limit raised for 10,000 clients, on 127.0.0.1 and a free port; waits until the
 * port accepts connections. The pid is the server's own (bash and taskset exec
 * into node, bun or deno), so `/proc/<pid>` is the server.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync } from 'node:fs'
import type { Runtime } from '../peers/contenders.js'
import { accepts, freePort } from './ports.js'

/** A running contender. */
export interface RunningServer {
  readonly pid: number
  readonly port: number
  /** SIGTERM, then SIGKILL after 2 s; resolves once the process is gone. */
  readonly stop: () => Promise<void>
}

/** Every child the harness started and has not seen exit, killed if the harness exits early. */
export const LIVE = new Set<ChildProcess>()

/**
 * Runs a bench's `main` as its whole process: every child still in {@link LIVE} is killed when
 * the process exits (by the end, an error, or Ctrl-C / SIGTERM, which exit 130), and the
 * process exits 0 when `main` settles, 1 with the error printed when it fails.
 */
export const runBench = (main: () => Promise<void>): void => {
  process.on('exit', () => {
    for (const child of LIVE) child.kill('SIGKILL')
  })
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => process.exit(130))
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}

/** `bash -c` prefix: raise the fd limit as far as allowed, then exec the pinned command. */
export const pinned = (cpu: number): string[] => [
  'bash', '-c', `ulimit -n 65536 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec taskset -c ${cpu} "$@"`, 'pinned',
]

/** The lines of a crash that say what went wrong: the first error line, or the last lines. */
export const crashSummary = (stderr: string): string => {
  const lines = stderr.split('\n').map((l) => l.trim()).filter((l) => l !== '')
  const error = lines.find((l) => /^(\w*Error|error)\b|Error:|ERR_/.test(l))
  return (error ?? lines.slice(-3).join(' | ')).slice(0, 300)
}

/** Bun and Deno as npm installs them (devDependencies). */
export const BUN = 'node_modules/bun/bin/bun.exe'
export const DENO = 'node_modules/deno/deno'

// npm's `deno` package links its binary into place the first time its wrapper runs. The
// binary itself is started, not the wrapper: the pid must be the server's.
const denoBinary = (): string => {
  if (!existsSync(DENO)) spawnSync(process.execPath, ['node_modules/deno/bin.cjs', '--version'], { stdio: 'ignore' })
  return DENO
}

/**
 * The command line that runs `script` in `runtime`: `node --import tsx <script>` (plain
 * `node` for compiled `.js`), `bun <script>`, or `deno run -A --sloppy-imports
 * --node-modules-dir=manual <script>` (the project's `.js` import specifiers name `.ts`
 * files, and the packages come from the project's node_modules).
 */
export const serverCommand = (runtime: Runtime, script: string, nodeFlags: readonly string[] = []): readonly string[] => {
  switch (runtime) {
    case 'node':
      return [process.execPath, ...nodeFlags, ...(script.endsWith('.js') ? [] : ['--import', 'tsx']), script]
    case 'bun':
      return [BUN, script]
    case 'deno':
      return [denoBinary(), 'run', '--quiet', '-A', '--sloppy-imports', '--node-modules-dir=manual', script]
  }
}

/**
 * Starts `script` in `runtime` (see `serverCommand`) with HOST=127.0.0.1, PORT and `env`
 * (TLS_KEY/TLS_CERT for TLS workloads, DEFLATE=1 for compression) set;
 * resolves with the server, or with the reason it did not come up within `timeoutMs`
 * (its exit code and the tail of its stderr).
 */
export const startServer = async (
  script: string,
  timeoutMs = 20_000,
  nodeFlags: readonly string[] = [],
  env: Readonly<Record<string, string>> = {},
  runtime: Runtime = 'node',
): Promise<RunningServer | string> => {
  const port = await freePort()
  const [cmd, ...pre] = pinned(0)
  const child = spawn(cmd!, [...pre, ...serverCommand(runtime, script, nodeFlags)], {
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

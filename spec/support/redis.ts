/**
 * A real `redis-server` for the Redis specs (DESIGN §7: no mock of a server the user would
 * run): started on a free 127.0.0.1 port in a temporary directory, with no persistence, and
 * stopped (or killed, and started again on the same port) by the test. Needs the Debian
 * package `redis-server` (`.ci/run` installs it).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface RedisServer {
  readonly port: number
  /** The running server's process id (undefined while stopped). */
  readonly pid: number | undefined
  readonly url: string
  /** Stops the server (SIGTERM) and waits for it to exit. */
  stop(): Promise<void>
  /** Starts it again on the same port (after `stop`). */
  restart(): Promise<void>
  /** Runs `redis-cli` against it and answers its output. */
  cli(...args: string[]): Promise<string>
  /** Stops the server for good and removes its directory. */
  dispose(): Promise<void>
}

/** A port free on 127.0.0.1 now (the OS picks it). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address()
      const port = typeof address === 'object' && address !== null ? address.port : 0
      probe.close(() => resolve(port))
    })
  })

/**
 * Starts `redis-server` with `args` and resolves once it accepts connections; fails with
 * what it printed when it exits or is not ready within 5 s. `label` names it in errors.
 */
export const spawnRedisServer = (args: readonly string[], port: number, label = 'redis-server'): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`${label} did not start on ${port}:\n${out}`))
    }, 5000)
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      if (out.includes('Ready to accept connections')) {
        clearTimeout(timer)
        resolve(child)
      }
    })
    child.stderr?.on('data', (chunk: Buffer) => void (out += chunk.toString()))
    child.once('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`${label} exited with ${code}:\n${out}`))
    })
  })

const launch = (port: number, dir: string): Promise<ChildProcess> =>
  spawnRedisServer(['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--enable-debug-command', 'local'], port)

/** Resolves when the child process has exited. */
export const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((resolve) => child.once('exit', () => resolve()))

/** Starts a redis-server of its own for a suite. */
export const startRedis = async (): Promise<RedisServer> => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-redis-'))
  const port = await freePort()
  let child: ChildProcess | undefined = await launch(port, dir)
  const stop = async (): Promise<void> => {
    const running = child
    child = undefined
    if (running === undefined) return
    running.kill('SIGTERM')
    await exited(running)
  }
  return {
    port,
    get pid() {
      return child?.pid
    },
    url: `redis://127.0.0.1:${port}`,
    stop,
    restart: async () => {
      if (child === undefined) child = await launch(port, dir)
    },
    cli: (...args) =>
      new Promise((resolve, reject) =>
        execFile('redis-cli', ['-p', String(port), ...args], { timeout: 10_000 }, (error, stdout) => (error === null ? resolve(stdout.trim()) : reject(error))),
      ),
    dispose: async () => {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * A Redis Cluster failover that lost a room's last `lost` writes, as its new master has the
 * room (lib/redis/lua-scripts.ts), made on a single redis-server: the room's counter and
 * stream (keys under `prefix`) put behind; with `newEpoch`, as after the next broadcast's
 * script: epoch e + 1000 started, where the old one ended kept (pe, pn). Answers the old epoch.
 */
export const simulateFailover = async (redis: Pick<RedisServer, 'cli'>, prefix: string, room: string, lost: number, newEpoch: boolean): Promise<number> => {
  const counter = `${prefix}:{r:%2F:${room}}:q`
  const stream = `${prefix}:{r:%2F:${room}}:s`
  const epoch = Number(await redis.cli('HGET', counter, 'e'))
  const n = Number(await redis.cli('HGET', counter, 'n'))
  for (let k = 0; k < lost; k++) await redis.cli('XDEL', stream, `${epoch}-${n - k}`)
  await redis.cli('HSET', counter, 'n', String(n - lost))
  if (newEpoch) await redis.cli('HSET', counter, 'pe', String(epoch), 'pn', String(n - lost), 'e', String(epoch + 1000), 'n', '0')
  return epoch
}

/** A twinport node in a child process (spec/redis/fixtures/node.ts, or another fixture), to kill or freeze. */
export interface NodeProcess {
  readonly port: number
  readonly node: string
  readonly child: ChildProcess
  /** Waits for the process to exit after a signal. */
  exited(): Promise<void>
}

export const startNodeProcess = (env: Readonly<Record<string, string>>, script = 'spec/redis/fixtures/node.ts'): Promise<NodeProcess> =>
  new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`the node process did not start within 60 s:\n${out}${err}`))
    }, 60_000) // tsx compiles the fixture first: slow on a loaded 2-core machine
    child.stderr?.on('data', (chunk: Buffer) => void (err += chunk.toString()))
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString()
      const line = out.split('\n').find((l) => l.startsWith('{'))
      if (line === undefined) return
      clearTimeout(timer)
      const { port, node } = JSON.parse(line) as { port: number; node: string }
      resolve({ port, node, child, exited: () => exited(child) })
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`the node process exited with ${code}:\n${out}${err}`))
    })
  })

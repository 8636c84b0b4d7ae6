/**
 * A Worker run for real on `workerd` (the open-source Workers runtime, npm `workerd`), for the
 * Workers specs: the Worker module is bundled with esbuild, a config (capnp text) is written
 * beside it (the Worker, its Durable Object namespace `TWINPORT_HUB` with in-memory storage,
 * one HTTP socket on a free loopback port), and `workerd serve` runs it until `stop`.
 * Everything stays on the machine. With `unsafe`, the Worker may import workerd's test-only
 * `workerd:unsafe` module (the experimental `unsafe_module` flag: evicting Durable Objects as an
 * idle runtime would, their hibernatable WebSockets kept). `workerdRuns` tells whether the binary can run here at all
 * (the only reason a spec may skip). A test helper: node:* is fine here.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { build } from 'esbuild'

export const WORKERD = 'node_modules/.bin/workerd'

/** A running workerd. */
export interface Workerd {
  readonly port: number
  readonly url: string
  /** Everything it printed so far (the Worker's console lines among it). */
  output(): string
  stop(): Promise<void>
}

/** Whether workerd runs on this machine: `undefined` when it does, else why not. */
export const workerdRuns = (): Promise<string | undefined> =>
  new Promise((resolve) => {
    execFile(WORKERD, ['--version'], { timeout: 20_000 }, (error, stdout, stderr) =>
      resolve(error === null && /workerd/.test(stdout) ? undefined : `${WORKERD} --version failed: ${error?.message ?? ''} ${stderr}`.trim()),
    )
  })

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))))
    })
  })

/** How to run it: `unsafe` enables the `workerd:unsafe` module (and workerd's `--experimental`). */
export interface WorkerdOptions {
  readonly unsafe?: boolean
}

/** The config: one Worker, its hub class bound as `TWINPORT_HUB`, an HTTP socket on `port`. */
export const workerdConfig = (port: number, hubClass: string, options: WorkerdOptions = {}): string => `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = .worker) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ],
);
const worker :Workerd.Worker = (
  modules = [ (name = "worker.js", esModule = embed "worker.js") ],
  compatibilityDate = "2025-09-01",${options.unsafe === true ? '\n  compatibilityFlags = ["unsafe_module"],' : ''}
  durableObjectNamespaces = [ (className = "${hubClass}", uniqueKey = "twinport-spec-hub") ],
  durableObjectStorage = (inMemory = void),
  bindings = [ (name = "TWINPORT_HUB", durableObjectNamespace = "${hubClass}") ],
);
`

/**
 * Bundles `entry` (a Worker module exporting `hubClass`) and serves it; resolves once it answers
 * HTTP (within 30 s).
 */
export const startWorkerd = async (entry: string, hubClass: string, options: WorkerdOptions = {}): Promise<Workerd> => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-workerd-'))
  await build({ entryPoints: [entry], bundle: true, format: 'esm', platform: 'browser', target: 'es2022', outfile: join(dir, 'worker.js'), logLevel: 'error', external: ['workerd:*'] })
  const port = await freePort()
  writeFileSync(join(dir, 'config.capnp'), workerdConfig(port, hubClass, options))
  const flags = options.unsafe === true ? ['--experimental'] : []
  const child: ChildProcess = spawn(WORKERD, ['serve', ...flags, join(dir, 'config.capnp')], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  child.stderr?.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')))
  const url = `http://127.0.0.1:${port}`
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        rmSync(dir, { recursive: true, force: true })
        resolve()
      }
      if (child.exitCode !== null || child.signalCode !== null) return done()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      child.once('exit', () => {
        clearTimeout(timer)
        done()
      })
      child.kill('SIGTERM')
    })
  const until = Date.now() + 30_000
  for (;;) {
    if (child.exitCode !== null) {
      await stop()
      throw new Error(`workerd exited with ${child.exitCode} before serving\n${out}`)
    }
    try {
      await fetch(url, { signal: AbortSignal.timeout(1000) })
      return { port, url, output: () => out, stop }
    } catch {
      if (Date.now() > until) {
        await stop()
        throw new Error(`workerd did not answer within 30 s\n${out}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }
}

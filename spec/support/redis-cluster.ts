/**
 * A real Redis Cluster for the cluster specs (DESIGN §7: no mock of a server the user
 * would run): three `redis-server` masters with `--cluster-enabled yes`, each on a free
 * 127.0.0.1 port (and a free cluster-bus port) in a temporary directory, joined with
 * `redis-cli --cluster create … --cluster-replicas 0`, ready once every master reports
 * `cluster_state:ok`. `dispose` stops them and removes the directory.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exited, freePort } from './redis.js'

export interface RedisClusterServer {
  /** The masters' client ports, in the order they were started. */
  readonly ports: readonly number[]
  /** The masters as node-redis root nodes (`createCluster({ rootNodes })`). */
  readonly rootNodes: readonly { readonly url: string }[]
  /** Runs `redis-cli` against one master (by its port) and answers its output. */
  cli(port: number, ...args: string[]): Promise<string>
  /** The port of the master that serves `key`'s slot. */
  masterOf(key: string): Promise<number>
  /** Stops every master and removes the directory. */
  dispose(): Promise<void>
}

const cli = (args: readonly string[], timeout = 20_000): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile('redis-cli', [...args], { timeout }, (error, stdout, stderr) =>
      error === null ? resolve(stdout.trim()) : reject(new Error(`redis-cli ${args.join(' ')}: ${error.message}\n${stdout}${stderr}`)),
    ),
  )

const launch = (port: number, busPort: number, dir: string): Promise<ChildProcess> =>
  new Promise((resolve, reject) => {
    mkdirSync(dir, { recursive: true })
    const child = spawn(
      'redis-server',
      [
        '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no',
        '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-port', String(busPort),
        '--cluster-node-timeout', '2000',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    let out = ''
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`redis-server (cluster) did not start on ${port}:\n${out}`))
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
      reject(new Error(`redis-server (cluster) exited with ${code}:\n${out}`))
    })
  })

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * Starts a three-master Redis Cluster of its own for a suite. Throws (with redis-cli's
 * output) when the cluster cannot be created.
 */
export const startRedisCluster = async (masters = 3): Promise<RedisClusterServer> => {
  const dir = mkdtempSync(join(tmpdir(), 'twinport-redis-cluster-'))
  const children: ChildProcess[] = []
  const ports: number[] = []
  const dispose = async (): Promise<void> => {
    for (const child of children) child.kill('SIGTERM')
    await Promise.all(children.map(exited))
    rmSync(dir, { recursive: true, force: true })
  }
  try {
    // Two free ports per master: the client port and the cluster bus (by default port + 10000,
    // which may be taken or out of range for an ephemeral port).
    const taken = new Set<number>()
    const fresh = async (): Promise<number> => {
      for (;;) {
        const port = await freePort()
        if (!taken.has(port)) {
          taken.add(port)
          return port
        }
      }
    }
    for (let i = 0; i < masters; i++) {
      const port = await fresh()
      children.push(await launch(port, await fresh(), join(dir, String(port))))
      ports.push(port)
    }
    await cli(['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'])
    // Every master must know the whole slot map before clients come.
    for (let i = 0; ; i++) {
      const states = await Promise.all(ports.map((p) => cli(['-p', String(p), 'CLUSTER', 'INFO'])))
      if (states.every((s) => s.includes('cluster_state:ok'))) break
      if (i === 100) throw new Error(`the cluster did not reach cluster_state:ok:\n${states.join('\n')}`)
      await delay(50)
    }
  } catch (error) {
    await dispose()
    throw error
  }
  return {
    ports,
    rootNodes: ports.map((p) => ({ url: `redis://127.0.0.1:${p}` })),
    cli: (port, ...args) => cli(['-p', String(port), ...args]),
    masterOf: async (key) => {
      const slot = Number(await cli(['-p', String(ports[0]), 'CLUSTER', 'KEYSLOT', key]))
      // CLUSTER NODES: `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot or lo-hi>…`
      for (const line of (await cli(['-p', String(ports[0]), 'CLUSTER', 'NODES'])).split('\n')) {
        const fields = line.split(' ')
        const serves = fields.slice(8).some((range) => {
          const [lo, hi] = range.split('-').map(Number)
          return lo !== undefined && slot >= lo && slot <= (hi ?? lo)
        })
        if (serves) return Number((fields[1] ?? '').split('@')[0]?.split(':')[1])
      }
      throw new Error(`no master serves slot ${slot} of ${key}`)
    },
    dispose,
  }
}

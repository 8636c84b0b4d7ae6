/**
 * A real Redis Cluster for the cluster specs (DESIGN §7: no mock of a server the user
 * would run): `redis-server --cluster-enabled yes` masters (three by default), each on a
 * free 127.0.0.1 port (and a free cluster-bus port) in a temporary directory, joined with
 * `redis-cli --cluster create … --cluster-replicas N`, ready once every node reports
 * `cluster_state:ok` (and every replica is in sync). With replicas, a test can kill a master
 * (SIGKILL), wait for its replica's promotion and start the dead node again (it comes back
 * as a replica of the new master). `dispose` stops every node and removes the directory.
 */
import { type ChildProcess, execFile } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { exited, freePort, spawnRedisServer } from './redis.js'

export interface RedisClusterOptions {
  /** Masters (default 3). */
  readonly masters?: number
  /** Replicas per master (default 0). */
  readonly replicas?: number
  /** `cluster-node-timeout` (default 2000 ms): how long a silent master takes to be failed over. */
  readonly nodeTimeoutMs?: number
}

/** One node as `CLUSTER NODES` describes it. */
export interface ClusterNode {
  readonly id: string
  readonly port: number
  readonly role: 'master' | 'replica'
  /** The master's id, for a replica. */
  readonly masterId: string | undefined
  /** Marked failed (`fail` or `fail?`) by the node asked. */
  readonly failed: boolean
  /** Slot ranges served, as `lo-hi` or `n` (masters). */
  readonly slots: readonly string[]
}

export interface RedisClusterServer {
  /** The masters' client ports as created, in the order they were started. */
  readonly ports: readonly number[]
  /** The replicas' client ports as created (empty without replicas). */
  readonly replicaPorts: readonly number[]
  /** The masters as node-redis root nodes (`createCluster({ rootNodes })`). */
  readonly rootNodes: readonly { readonly url: string }[]
  /** Runs `redis-cli` against one node (by its port) and answers its output. */
  cli(port: number, ...args: string[]): Promise<string>
  /** The port of the master that serves `key`'s slot (asked of a running node). */
  masterOf(key: string): Promise<number>
  /** The nodes as a running node sees them. */
  nodes(): Promise<readonly ClusterNode[]>
  /** Whether the node on `port` runs now. */
  running(port: number): boolean
  /** Kills the node on `port` (SIGKILL: no goodbye to its peers or clients) and waits for it to exit. */
  kill(port: number): Promise<void>
  /**
   * Waits (up to `timeoutMs`) until a replica has taken over every slot of the dead master
   * on `port` and every running node reports `cluster_state:ok`; answers the new master's port.
   */
  failedOver(port: number, timeoutMs?: number): Promise<number>
  /**
   * Starts the node on `port` again (after `kill`), with its saved cluster config, and waits
   * until it has rejoined as a replica in sync and the cluster is settled as it was made.
   */
  restart(port: number): Promise<void>
  /** Stops every node and removes the directory. */
  dispose(): Promise<void>
}

const cli = (args: readonly string[], timeout = 20_000): Promise<string> =>
  new Promise((resolve, reject) =>
    execFile('redis-cli', [...args], { timeout }, (error, stdout, stderr) =>
      error === null ? resolve(stdout.trim()) : reject(new Error(`redis-cli ${args.join(' ')}: ${error.message}\n${stdout}${stderr}`)),
    ),
  )

const launch = (port: number, busPort: number, dir: string, nodeTimeoutMs: number): Promise<ChildProcess> => {
  mkdirSync(dir, { recursive: true })
  return spawnRedisServer(
    [
      '--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no',
      '--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'), '--cluster-port', String(busPort),
      '--cluster-node-timeout', String(nodeTimeoutMs),
      // A replica syncs at once (no wait for more replicas to share a diskless transfer).
      '--repl-diskless-sync-delay', '0',
      '--enable-debug-command', 'local',
    ],
    port,
    'redis-server (cluster)',
  )
}

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

// CLUSTER NODES: `<id> <ip:port@bus> <flags> <master> <ping> <pong> <epoch> <link> <slot or lo-hi>…`
const parseNodes = (text: string): ClusterNode[] =>
  text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => {
      const fields = line.split(' ')
      const flags = (fields[2] ?? '').split(',')
      return {
        id: fields[0] ?? '',
        port: Number((fields[1] ?? '').split('@')[0]?.split(':')[1]),
        role: flags.includes('master') ? ('master' as const) : ('replica' as const),
        masterId: fields[3] === '-' ? undefined : fields[3],
        failed: flags.includes('fail') || flags.includes('fail?'),
        slots: fields.slice(8).filter((s) => !s.startsWith('[')),
      }
    })

const serves = (node: ClusterNode, slot: number): boolean =>
  node.slots.some((range) => {
    const [lo, hi] = range.split('-').map(Number)
    return lo !== undefined && slot >= lo && slot <= (hi ?? lo)
  })

/**
 * Starts a Redis Cluster of its own for a suite (three masters, no replicas, unless told).
 * Throws (with redis-cli's output) when the cluster cannot be created; stops what it
 * started before it throws.
 */
export const startRedisCluster = async (options: RedisClusterOptions = {}): Promise<RedisClusterServer> => {
  const masters = options.masters ?? 3
  const replicas = options.replicas ?? 0
  const nodeTimeoutMs = options.nodeTimeoutMs ?? 2000
  const dir = mkdtempSync(join(tmpdir(), 'twinport-redis-cluster-'))
  const children = new Map<number, ChildProcess>()
  const buses = new Map<number, number>()
  const all: number[] = []
  // The slots each killed master served, to know its heir.
  const held = new Map<number, readonly string[]>()
  const dispose = async (): Promise<void> => {
    const running = [...children.values()]
    children.clear()
    for (const child of running) child.kill('SIGKILL')
    await Promise.all(running.map(exited))
    rmSync(dir, { recursive: true, force: true })
  }
  const live = (): number[] => all.filter((p) => children.has(p))
  const ask = (port: number, ...args: string[]): Promise<string> => cli(['-p', String(port), ...args])
  const askAnyLive = async (...args: string[]): Promise<string> => {
    let last: unknown
    for (const port of live()) {
      try {
        return await ask(port, ...args)
      } catch (error) {
        last = error
      }
    }
    throw new Error(`no running cluster node answered ${args.join(' ')}: ${String(last)}`)
  }
  const nodes = async (): Promise<ClusterNode[]> => parseNodes(await askAnyLive('CLUSTER', 'NODES'))
  const allOk = async (): Promise<boolean> => {
    const states = await Promise.all(live().map((p) => ask(p, 'CLUSTER', 'INFO').catch(() => '')))
    return states.every((s) => s.includes('cluster_state:ok'))
  }
  // The cluster as it was made: every node known and running, `masters` masters that each
  // serve slots, every other node a replica whose link to its master is up, every node `ok`.
  // Under load a node's gossip can still list a replica as a master after the others see it
  // replicating, and a restarted master calls itself a master of no slots until it learns of
  // its failover: neither counts as settled.
  const settled = async (timeoutMs: number): Promise<ClusterNode[]> => {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const known = await nodes().catch(() => [])
      const owners = known.filter((n) => n.role === 'master' && !n.failed && n.slots.length > 0)
      const following = known.filter((n) => n.role === 'replica' && !n.failed)
      const synced = await Promise.all(following.map(async (n) => (await ask(n.port, 'INFO', 'replication').catch(() => '')).includes('master_link_status:up')))
      const whole = known.length === all.length && known.every((n) => children.has(n.port))
      if (whole && owners.length === masters && following.length === all.length - masters && synced.every(Boolean) && (await allOk())) return known
      if (Date.now() > deadline) throw new Error(`the cluster did not settle within ${timeoutMs} ms:\n${known.map((n) => JSON.stringify(n)).join('\n')}`)
      await delay(50)
    }
  }
  let masterPorts: number[] = []
  let replicaPorts: number[] = []
  try {
    // Two free ports per node: the client port and the cluster bus (by default port + 10000,
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
    for (let i = 0; i < masters * (1 + replicas); i++) {
      const port = await fresh()
      const bus = await fresh()
      children.set(port, await launch(port, bus, join(dir, String(port)), nodeTimeoutMs))
      buses.set(port, bus)
      all.push(port)
    }
    await cli(['--cluster', 'create', ...all.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', String(replicas), '--cluster-yes'])
    // Every node must know the whole slot map (and every replica have its master's data)
    // before clients come.
    const known = await settled(20_000)
    masterPorts = all.filter((p) => known.find((n) => n.port === p)?.role === 'master')
    replicaPorts = all.filter((p) => !masterPorts.includes(p))
  } catch (error) {
    await dispose()
    throw error
  }
  return {
    ports: masterPorts,
    replicaPorts,
    rootNodes: masterPorts.map((p) => ({ url: `redis://127.0.0.1:${p}` })),
    cli: ask,
    masterOf: async (key) => {
      const slot = Number(await askAnyLive('CLUSTER', 'KEYSLOT', key))
      const master = (await nodes()).find((n) => n.role === 'master' && !n.failed && serves(n, slot))
      if (master === undefined) throw new Error(`no master serves slot ${slot} of ${key}`)
      return master.port
    },
    nodes,
    running: (port) => children.has(port),
    kill: async (port) => {
      const child = children.get(port)
      if (child === undefined) throw new Error(`no cluster node runs on ${port}`)
      held.set(port, (await nodes()).find((n) => n.port === port)?.slots ?? [])
      children.delete(port)
      child.kill('SIGKILL')
      await exited(child)
    },
    failedOver: async (port, timeoutMs = 15_000) => {
      const slots = held.get(port) ?? []
      const first = Number((slots[0] ?? '').split('-')[0])
      if (slots.length === 0) throw new Error(`the node on ${port} was killed holding no slots: nothing to fail over`)
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const known = await nodes().catch(() => [])
        const heir = known.find((n) => n.role === 'master' && !n.failed && n.port !== port && children.has(n.port) && serves(n, first))
        if (heir !== undefined && (await allOk())) return heir.port
        if (Date.now() > deadline) throw new Error(`no replica took over from ${port} within ${timeoutMs} ms:\n${known.map((n) => JSON.stringify(n)).join('\n')}`)
        await delay(50)
      }
    },
    restart: async (port) => {
      if (children.has(port)) return
      children.set(port, await launch(port, buses.get(port) as number, join(dir, String(port)), nodeTimeoutMs))
      // Back as a replica of the master that took over, in sync: the next test meets the
      // cluster as it was made, not a master of no slots that is about to turn.
      await settled(20_000)
    },
    dispose,
  }
}

/**
 * The processes of the scale-out benchmarks (bench/cluster.ts, bench/recovery-store.ts): a
 * redis-server of their own (spec/support/redis.ts) and the servers under test as Node child
 * processes, pinned as bench/run.ts pins where `taskset` exists (the servers on CPU 0; Redis
 * and the benchmark process, whose clients drive them, on CPU 1), killed when the benchmark
 * exits, and their CPU time read from /proc.
 */
import { type ChildProcess, spawn, type SpawnOptions, spawnSync } from 'node:child_process'
import { CLK_TCK, processCpuTicks } from './load/proc.js'
import { type RedisServer, startRedis } from '../spec/support/redis.js'

export interface BenchProcesses {
  /** Whether the processes are pinned (`taskset` exists). */
  readonly pinned: boolean
  /** Starts redis-server on a free port, pinned with this process to CPU 1. */
  startRedis(): Promise<RedisServer>
  /** Starts `node <profile flags> …args` pinned to CPU 0; killed if the benchmark exits first. */
  spawnNode(args: readonly string[], options: SpawnOptions): ChildProcess
  /** Stops the children (SIGTERM first when profiling, so they write their profiles). */
  stop(children: readonly ChildProcess[]): Promise<void>
  /** CPU milliseconds used by the processes `pids` from now until `done()`. */
  cpuOf(pids: readonly number[]): { done(): number }
}

/**
 * The benchmark's processes; `profile` are Node flags given to every server (`--cpu-prof …`).
 *
 * @example
 * const processes = benchProcesses([])
 * const redis = await processes.startRedis()
 * const child = processes.spawnNode(['--import', 'tsx', 'bench/recovery/node.ts'], { env: { ...process.env, REDIS_URL: redis.url }, stdio: 'ignore' })
 * await processes.stop([child])
 * await redis.dispose()
 */
export const benchProcesses = (profile: readonly string[]): BenchProcesses => {
  const pin: readonly string[] = spawnSync('taskset', ['-V']).status === 0 ? ['taskset', '-c', '0'] : []
  const live = new Set<ChildProcess>()
  process.on('exit', () => {
    for (const child of live) child.kill('SIGKILL')
  })
  return {
    pinned: pin.length > 0,

    startRedis: async () => {
      const redis = await startRedis()
      if (pin.length > 0) {
        spawnSync('taskset', ['-p', '-c', '1', String(redis.pid)])
        spawnSync('taskset', ['-a', '-p', '-c', '1', String(process.pid)])
      }
      return redis
    },

    spawnNode: (args, options) => {
      const child = spawn(pin[0] ?? process.execPath, [...pin.slice(1), ...(pin.length > 0 ? [process.execPath] : []), ...profile, ...args], options)
      live.add(child)
      child.once('exit', () => live.delete(child))
      return child
    },

    stop: async (children) => {
      await Promise.all(
        children.map(
          (child) =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null || child.signalCode !== null) return resolve()
              child.once('exit', () => resolve())
              child.kill(profile.length > 0 ? 'SIGTERM' : 'SIGKILL')
              if (profile.length > 0) setTimeout(() => child.kill('SIGKILL'), 10_000).unref()
            }),
        ),
      )
    },

    cpuOf: (pids) => {
      const ticks = (): number => pids.reduce((sum, pid) => sum + (processCpuTicks(pid) ?? Number.NaN), 0)
      const start = ticks()
      return { done: (): number => ((ticks() - start) * 1000) / CLK_TCK }
    },
  }
}

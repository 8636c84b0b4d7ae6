/**
 * The setup every spec/redis suite shares (DESIGN §7: a real server, no mock): a Redis of
 * the suite's own (`startRedis`: a redis-server on a free 127.0.0.1 port in a temporary
 * directory; or `startRedisCluster`), started before the suite's first test and disposed of
 * after its last; the key prefix of the test; twinport servers on a Redis adapter; and
 * what a test opened, closed after it (last opened, first closed).
 */
import type { Test } from 'uvu'
import type { ServerHandle } from '../../lib/engine/server-handle.js'
import type { ServerOptions } from '../../lib/engine/options/server-options.js'
import { redisAdapter, type RedisAdapter, type RedisAdapterOptions } from '../../lib/redis/index.js'
import { eventually, type LogRecord, startServer } from './server.js'

/** A twinport server on 127.0.0.1 with a Redis adapter as its cluster adapter. */
export interface RedisNode {
  readonly server: ServerHandle
  readonly port: number
  readonly adapter: RedisAdapter
  readonly records: LogRecord[]
}

export interface RedisSuiteOptions<R> {
  /** Starts the suite's Redis (`startRedis`, or `() => startRedisCluster(…)`). */
  readonly start: () => Promise<R>
  /** The key prefix of every test; with `numbered`, a stem numbered per test (`cf1`, `cf2`, …), so that no test sees the keys another left. */
  readonly prefix: string
  readonly numbered?: boolean
  /** What `startNode` gives every adapter (the Redis to reach, heartbeats), before the test's own options. */
  readonly adapter?: (redis: R) => RedisAdapterOptions
  /** What `startNode` gives every server (its routes), before the test's own options. */
  readonly server?: ServerOptions
  /** Runs once the Redis is up, before the first test (admin clients, rooms to find). */
  readonly setup?: (redis: R) => Promise<void>
  /** Runs after each test, before what it opened is closed (processes to kill, a stopped Redis to start again). */
  readonly beforeClose?: (redis: R) => Promise<void>
  /** Runs after the last test, before the Redis is disposed of. */
  readonly teardown?: () => Promise<void>
}

export interface RedisSuite<R> {
  /** The suite's Redis (from its `before` on). */
  readonly redis: R
  /** The key prefix of the test running. */
  readonly prefix: string
  /**
   * Starts a twinport server whose cluster adapter is `redisAdapter` with the suite's options,
   * `nodeId`, the test's prefix and `adapter`; resolves once the adapter is ready. The server
   * is closed after the test.
   */
  startNode(nodeId: string, adapter?: RedisAdapterOptions, server?: ServerOptions): Promise<RedisNode>
  /** Closes `close` after the test, before what was opened earlier. */
  defer(close: () => void | Promise<void>): void
}

/** Registers the shared before/after hooks on `test` and answers the handle its tests use. */
export const redisSuite = <R extends { dispose(): Promise<void> }>(test: Test, options: RedisSuiteOptions<R>): RedisSuite<R> => {
  let redis: R | undefined
  let tests = 0
  let prefix = options.numbered === true ? `${options.prefix}0` : options.prefix
  const opened: (() => void | Promise<void>)[] = []
  const running = (): R => {
    if (redis === undefined) throw new Error('the suite\'s Redis is not running (redisSuite: use it inside a test)')
    return redis
  }
  test.before(async () => {
    redis = await options.start()
    await options.setup?.(redis)
  })
  test.before.each(() => {
    if (options.numbered === true) prefix = `${options.prefix}${++tests}`
  })
  test.after.each(async () => {
    // Whatever throws, everything the test opened is still closed (an open socket hangs the suite).
    try {
      await options.beforeClose?.(running())
    } finally {
      const failures: unknown[] = []
      for (let close = opened.pop(); close !== undefined; close = opened.pop()) await Promise.resolve().then(close).catch((e: unknown) => void failures.push(e))
      if (failures.length > 0) throw failures[0]
    }
  })
  test.after(async () => {
    await options.teardown?.()
    await redis?.dispose()
    redis = undefined
  })
  const defer = (close: () => void | Promise<void>): void => void opened.push(close)
  return {
    get redis() {
      return running()
    },
    get prefix() {
      return prefix
    },
    defer,
    startNode: async (nodeId, adapterOptions = {}, serverOptions = {}) => {
      const adapter = redisAdapter({ ...options.adapter?.(running()), nodeId, prefix, ...adapterOptions })
      const { server, port, records } = await startServer({ ...options.server, ...serverOptions, cluster: adapter })
      defer(() => server.close())
      await adapter.ready()
      return { server, port, adapter, records }
    },
  }
}

/** Waits (up to 3 s) until each node sees every other one as live (a heartbeat has run on each after all started). */
export const meshed = (...nodes: readonly RedisNode[]): Promise<void> =>
  eventually(() => nodes.every((n) => n.adapter.liveNodes().length === nodes.length - 1), 3000, 'the nodes to see each other')

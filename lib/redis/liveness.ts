/**
 * Which nodes are alive: each node keeps a heartbeat in a sorted set (HEARTBEAT_SCRIPT), with
 * its generation; the script answers with every live node and its generation. A node new or
 * back from an outage (its generation changed) may have published what this node could not
 * hear, so the targets read their streams again (`nodesChanged`). This node's own generation
 * goes up once what waited for Redis is in the streams. Queries wait only for the live nodes.
 * Owns the heartbeat timer; imports the engine as types only, no `node:*`.
 */
import type { TimerId } from '../engine/platform.js'
import { type AdapterContext, errorText } from './adapter-context.js'
import { HEARTBEAT_SCRIPT } from './lua-scripts.js'
import { generationsKey, nodesKey } from './redis-keys.js'

export class Liveness {
  /** The other live nodes and their generations at the last heartbeat. */
  private readonly live = new Map<string, string>()
  /** This node's generation: a new one tells the others to read the streams again. */
  private generation = 1
  private heartbeat: TimerId | undefined = undefined
  private readonly nodes: string
  private readonly generations: string

  constructor(
    private readonly ctx: AdapterContext,
    private readonly timing: { readonly heartbeatIntervalMs: number; readonly heartbeatTimeoutMs: number; readonly requestTimeoutMs: number },
    /** Another node is new or came back: what it published may be in the streams only. */
    private readonly nodesChanged: () => void,
    /** Another node is no longer alive (it left, or its heartbeat ran out). */
    private readonly nodeGone: (node: string) => void = () => undefined,
  ) {
    this.nodes = nodesKey(ctx.prefix)
    this.generations = generationsKey(ctx.prefix)
  }

  /** The other nodes alive at the last heartbeat. */
  liveNodes(): string[] {
    return [...this.live.keys()]
  }

  isLive(node: string): boolean {
    return this.live.has(node)
  }

  /** Says this node is alive (or, `alive` false, that it leaves) and reads who else is. */
  async beat(alive: boolean): Promise<void> {
    const { port, nodeId } = this.ctx
    const args = [this.nodes, this.generations, nodeId, String(this.timing.heartbeatTimeoutMs), alive ? '1' : '0', String(this.generation)]
    const result = (await port.command(['EVAL', HEARTBEAT_SCRIPT, '2', ...args], { key: this.nodes })) as string[]
    let changed = false
    const seen = new Set<string>()
    for (let i = 0; i + 1 < result.length; i += 2) {
      const id = result[i] as string
      const gen = result[i + 1] as string
      if (id === nodeId) continue
      seen.add(id)
      if (this.live.get(id) !== gen) changed = true
      this.live.set(id, gen)
    }
    for (const id of [...this.live.keys()]) {
      if (seen.has(id)) continue
      this.live.delete(id)
      this.nodeGone(id)
    }
    if (changed && alive) this.nodesChanged()
  }

  /** What waited is in the streams now: the next beat carries a new generation. */
  nextGeneration(): void {
    this.generation += 1
  }

  /**
   * Runs `tick` every heartbeat interval; the tick beats (`beatInBackground`) and does what
   * else is due then (redis-adapter.ts).
   */
  startHeartbeat(tick: () => void): void {
    this.heartbeat = this.ctx.host.timers.setInterval(tick, this.timing.heartbeatIntervalMs)
  }

  /** A beat whose failure is only logged (the next one tries again). */
  beatInBackground(): void {
    this.beat(true).catch((error: unknown) => this.ctx.host.logger.debug('cluster: heartbeat failed: {error}', { error: errorText(error) }))
  }

  /**
   * Leaves the registry, unless Redis is away or too slow to say so within the request time
   * bound (then the heartbeat runs out by itself). Never rejects.
   */
  leave(): Promise<void> {
    const { timers } = this.ctx.host
    return new Promise<void>((resolve) => {
      const timer = timers.setTimeout(resolve, this.timing.requestTimeoutMs)
      this.beat(false).then(
        () => {
          timers.clearTimeout(timer)
          resolve()
        },
        () => resolve(),
      )
    })
  }

  /** The node is closing: no more heartbeats. */
  stop(): void {
    if (this.heartbeat !== undefined) this.ctx.host.timers.clearInterval(this.heartbeat)
  }
}

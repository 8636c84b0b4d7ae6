/**
 * `startMetrics`: a server's metrics from its `metrics` option: the registry (made here with
 * the `node` label, or the application's), the instruments, the `Instrumentation` the engine
 * calls, the gauges read from the engine's state when collected (connections by transport,
 * send backlog, rooms and members, parked sessions) and the event-loop probe. `undefined`
 * when the option is `false`. Must not import `node:*`, Buffer or process.
 */
import { createMetricsRegistry, type MetricsRegistry } from '../../core/metrics/metrics-registry.js'
import type { MetricsOptions } from '../options/server-options.js'
import type { SocketIo, Timers } from '../platform.js'
import type { ClientTable } from '../registry/client-table.js'
import type { NamespaceRegistry } from '../registry/namespace-registry.js'
import { EventLoopProbe } from './event-loop-probe.js'
import type { Instrumentation } from './instrumentation.js'
import { metricsInstrumentation } from './metrics-instrumentation.js'
import { type ServerMetrics, serverMetrics } from './server-metrics.js'

/** A server's running metrics. */
export interface StartedMetrics {
  readonly registry: MetricsRegistry
  readonly instruments: ServerMetrics
  readonly instrumentation: Instrumentation
  readonly probe: EventLoopProbe
}

/** What the observed gauges read, once the engine's parts exist. */
export interface ObservedState<S> {
  readonly table: ClientTable<S>
  readonly registry: NamespaceRegistry
  readonly parked: ReadonlyMap<number, unknown>
  readonly io: SocketIo<S>
}

const TRANSPORT: Readonly<Record<string, string>> = Object.freeze({ http: 'http', ws: 'websocket', sse: 'sse' })

// A clock in seconds: `performance.now()` where the runtime has it (every one twinport runs on), else the platform's.
const secondsClock = (timers: Timers): (() => number) => {
  const perf = (globalThis as { readonly performance?: { now(): number } }).performance
  return perf === undefined ? () => timers.now() / 1000 : () => perf.now() / 1000
}

/**
 * The metrics of a server whose route table has `events`, or `undefined` with `metrics: false`.
 * `clusterNode` is the cluster adapter's `nodeId` when the application gave one.
 */
export const startMetrics = (option: boolean | MetricsOptions | undefined, clusterNode: string | undefined, events: ReadonlySet<string>, timers: Timers): StartedMetrics | undefined => {
  if (option === false) return undefined
  const settings: MetricsOptions = option === true || option === undefined ? {} : option
  const node = settings.node ?? clusterNode
  const registry = settings.registry ?? createMetricsRegistry(node === undefined ? {} : { labels: { node } })
  const instruments = serverMetrics(registry)
  return { registry, instruments, instrumentation: metricsInstrumentation(instruments, events, secondsClock(timers), () => timers.now(), (run) => timers.afterIo(run)), probe: new EventLoopProbe(timers, instruments.eventLoopDelay) }
}

/** Registers the gauges read from the engine's state at each collection. */
export const observeServer = <S>(metrics: StartedMetrics, state: ObservedState<S>): void => {
  const { instruments } = metrics
  instruments.openConnections.observe((set) => {
    const counts: Record<string, number> = { http: 0, websocket: 0, sse: 0 }
    for (const client of state.table.all.values()) {
      const transport = TRANSPORT[client.type] ?? client.type
      counts[transport] = (counts[transport] ?? 0) + 1
    }
    for (const [transport, count] of Object.entries(counts)) set(count, transport)
  })
  instruments.sendBacklog.observe((set) => {
    let bytes = 0
    for (const client of state.table.all.values()) if (client.type !== 'http' && !state.io.isClosed(client.socket)) bytes += state.io.buffered(client.socket)
    set(bytes)
  })
  instruments.rooms.observe((set) => set(state.registry.listRooms().length))
  instruments.roomMembers.observe((set) => set(state.registry.listRooms().reduce((sum, room) => sum + room.members, 0)))
  instruments.parkedSessions.observe((set) => set(state.parked.size))
}

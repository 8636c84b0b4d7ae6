/**
 * `metricsInstrumentation`: the engine's `Instrumentation` as metrics. Every label set a hot
 * path uses is resolved once and kept (per route template, method and status class; per
 * event name of the route table, plus `_unknown`), and the last request's method and route
 * are remembered, so a request like the one before (keep-alive, pipelined) costs no Map read:
 * two comparisons, a few additions, and a share of one histogram search (the answers of a
 * turn, timed together, are counted together). No clock read per request: a request starts at
 * the time its chunk came (read by the engine anyway), and the answers given while chunks are
 * handled end at one clock read per I/O turn (`afterIo`), shared by every connection of the
 * server. No allocation. Must not import `node:*`, Buffer or process.
 */
import type { CounterSeries } from '../../core/metrics/counter.js'
import type { GaugeSeries } from '../../core/metrics/gauge.js'
import type { HistogramSeries } from '../../core/metrics/histogram.js'
import type { EventEnd, Instrumentation, ResumeOutcome } from './instrumentation.js'
import type { ServerMetrics } from './server-metrics.js'

// OpenTelemetry's rule: a method outside the known set is `_OTHER` (bounded cardinality).
const KNOWN_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'CONNECT', 'OPTIONS', 'TRACE', 'PATCH'])
const STATUS_CLASSES: readonly string[] = Object.freeze(['1xx', '1xx', '2xx', '3xx', '4xx', '5xx'])
const UNKNOWN_EVENT = '_unknown'
const NO_ROUTE = ''

// The series of one event name, resolved on its first message.
interface EventSeries {
  readonly received: CounterSeries
  readonly acks: CounterSeries
  readonly handled: readonly [HistogramSeries, HistogramSeries, HistogramSeries]
}

const END_INDEX: Readonly<Record<EventEnd, 0 | 1 | 2>> = Object.freeze({ ack: 0, no_reply: 1, error: 2 })

// Answers kept for their turn's end at most: past it they are timed at once (one clock read for
// them all), so a long synchronous run (a benchmark loop) holds a bounded table.
const MAX_PENDING = 4096

/**
 * The metrics side of the engine's instrumentation: `events` are the event names of the route
 * table (any other is counted as `_unknown`); `clock` answers seconds with sub-millisecond
 * resolution where the runtime has it; `engineClock` is the engine's (ms), and `afterIo` runs
 * its argument at the end of the current I/O turn (the engine's `Timers.afterIo`).
 */
export const metricsInstrumentation = (
  metrics: ServerMetrics,
  events: ReadonlySet<string>,
  clock: () => number,
  engineClock: () => number,
  afterIo: (run: () => void) => void,
): Instrumentation => {
  // Answers given while their chunk was handled, observed at the end of the turn (`settle`).
  const pendingSeries: HistogramSeries[] = []
  const pendingStart: number[] = []
  let pending = 0
  let scheduled = false
  // Times what is pending with one clock read. Runs of one series and one start (pipelined
  // requests of one chunk, or requests that came in the same millisecond) count as one
  // observation of n.
  const observePending = (): void => {
    scheduled = false
    if (pending === 0) return
    const now = engineClock()
    let i = 0
    while (i < pending) {
      const series = pendingSeries[i] as HistogramSeries
      const start = pendingStart[i] as number
      let j = i + 1
      while (j < pending && pendingSeries[j] === series && pendingStart[j] === start) j++
      series.observeMany(Math.max(0, now - start) / 1000, j - i)
      i = j
    }
    pending = 0
  }
  // route → method → status class index → series
  const byRoute = new Map<string, Map<string, HistogramSeries[]>>()
  const active = new Map<string, GaugeSeries>()
  const byEvent = new Map<string, EventSeries>()
  const methodOf = (method: string): string => (KNOWN_METHODS.has(method) ? method : '_OTHER')
  // The last method and its gauge series; the last method and route and their status classes.
  let activeMethod = ''
  let activeSeries: GaugeSeries | undefined
  let lastMethod = ''
  let lastRoute = NO_ROUTE
  let lastClasses: HistogramSeries[] | undefined
  const activeOf = (method: string): GaugeSeries => {
    if (method === activeMethod && activeSeries !== undefined) return activeSeries
    let series = active.get(method)
    if (series === undefined) {
      series = metrics.activeRequests.series(methodOf(method))
      active.set(method, series)
    }
    activeMethod = method
    return (activeSeries = series)
  }
  const classesOf = (method: string, route: string): HistogramSeries[] => {
    if (method === lastMethod && route === lastRoute && lastClasses !== undefined) return lastClasses
    let methods = byRoute.get(route)
    if (methods === undefined) byRoute.set(route, (methods = new Map()))
    let classes = methods.get(method)
    if (classes === undefined) methods.set(method, (classes = []))
    lastMethod = method
    lastRoute = route
    return (lastClasses = classes)
  }
  const durationOf = (method: string, route: string, status: number): HistogramSeries => {
    const classes = classesOf(method, route)
    const index = status >= 200 && status < 300 ? 2 : status >= 100 && status < 600 ? (status / 100) | 0 : 5
    return classes[index] ?? (classes[index] = metrics.requestDuration.labels(methodOf(method), route, STATUS_CLASSES[index] as string))
  }
  const eventOf = (event: string): EventSeries => {
    const name = events.has(event) ? event : UNKNOWN_EVENT
    let series = byEvent.get(name)
    if (series === undefined) {
      series = {
        received: metrics.messagesReceived.series(name),
        acks: metrics.acks.series(name),
        handled: [metrics.handlerDuration.labels(name, 'ack'), metrics.handlerDuration.labels(name, 'no_reply'), metrics.handlerDuration.labels(name, 'error')],
      }
      byEvent.set(name, series)
    }
    return series
  }
  const resumes: Readonly<Record<ResumeOutcome, CounterSeries>> = {
    resumed: metrics.resumes.series('resumed'),
    gap: metrics.resumes.series('gap'),
    unknown_session: metrics.resumes.series('unknown_session'),
    other: metrics.resumes.series('other'),
  }
  const slow = metrics.slowConsumers.labels()
  const published = metrics.clusterPublished.labels()
  const received = metrics.clusterReceived.labels()
  return {
    active: true,
    tracing: false,
    requestStarted: (method, now) => {
      activeOf(method).value++
      return now
    },
    requestAnswered: (method, route, status, started, ended) => {
      activeOf(method).value--
      const series = durationOf(method, route ?? NO_ROUTE, status)
      if (ended !== undefined) return series.observe(Math.max(0, ended - started) / 1000)
      pendingSeries[pending] = series
      pendingStart[pending] = started
      pending++
    },
    settle: () => {
      if (pending === 0) return
      if (pending >= MAX_PENDING) return observePending()
      if (scheduled) return
      scheduled = true
      afterIo(observePending)
    },
    eventStarted: (event) => {
      eventOf(event).received.value++
      return clock()
    },
    eventSettled: (event, end, code, started) => {
      const series = eventOf(event)
      series.handled[END_INDEX[end]].observe(Math.max(0, clock() - started))
      if (end === 'ack') series.acks.value++
      else if (end === 'error' && code !== undefined) metrics.errors.series(code).value++
    },
    inputRejected: (code) => {
      metrics.errors.series(code).value++
    },
    eventSent: (event) => {
      metrics.messagesSent.series(event).value++
    },
    slowConsumer: () => {
      slow.value++
    },
    sessionResume: (outcome) => {
      resumes[outcome].value++
    },
    clusterPublished: () => {
      published.value++
    },
    clusterReceived: () => {
      received.value++
    },
    traceOf: () => undefined,
    clusterRequestStarted: () => 0,
    clusterRequestEnded: () => undefined,
    clusterAnswerStarted: () => 0,
    clusterAnswerEnded: () => undefined,
  }
}

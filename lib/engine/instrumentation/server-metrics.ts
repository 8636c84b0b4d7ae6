/**
 * `serverMetrics`: the instruments of a twinport server, declared in one place with their
 * OpenTelemetry names, units and labels (docs/guide.md "Operations: metrics and health"
 * lists them with their Prometheus names). Must not import `node:*`, Buffer or process.
 */
import type { Counter } from '../../core/metrics/counter.js'
import type { Gauge } from '../../core/metrics/gauge.js'
import type { Histogram } from '../../core/metrics/histogram.js'
import type { MetricsRegistry } from '../../core/metrics/metrics-registry.js'

/** Faster buckets for event handlers and the event loop than HTTP's (seconds). */
export const FAST_BUCKETS: readonly number[] = Object.freeze([0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5])

export interface ServerMetrics {
  readonly requestDuration: Histogram
  readonly activeRequests: Gauge
  readonly openConnections: Gauge
  readonly messagesReceived: Counter
  readonly messagesSent: Counter
  readonly handlerDuration: Histogram
  readonly acks: Counter
  readonly errors: Counter
  readonly slowConsumers: Counter
  readonly sendBacklog: Gauge
  readonly rooms: Gauge
  readonly roomMembers: Gauge
  readonly parkedSessions: Gauge
  readonly resumes: Counter
  readonly clusterPublished: Counter
  readonly clusterReceived: Counter
  readonly eventLoopDelay: Histogram
}

/** Declares (or finds, in a registry given twice) a server's instruments. */
export const serverMetrics = (registry: MetricsRegistry): ServerMetrics => ({
  requestDuration: registry.histogram({
    name: 'http.server.request.duration', unit: 's', description: 'Duration of HTTP server requests, until the answer (its head, when streamed) is ready.',
    labels: ['http.request.method', 'http.route', 'http.response.status_code'],
  }),
  activeRequests: registry.gauge({ name: 'http.server.active_requests', unit: '{request}', description: 'HTTP requests being answered.', labels: ['http.request.method'] }),
  openConnections: registry.gauge({ name: 'twinport.server.open_connections', unit: '{connection}', description: 'Connections open, by transport (http, websocket, sse).', labels: ['network.transport'] }),
  messagesReceived: registry.counter({ name: 'twinport.messages.received', unit: '{message}', description: 'Event messages received from clients, by event name (_unknown: no route).', labels: ['event'] }),
  messagesSent: registry.counter({ name: 'twinport.messages.sent', unit: '{message}', description: 'Events sent by the server (send or broadcast: once per call), by event name.', labels: ['event'] }),
  handlerDuration: registry.histogram({
    name: 'twinport.event.handler.duration', unit: 's', description: 'Duration of event dispatches (middleware and handler), by event name and outcome.',
    labels: ['event', 'outcome'], buckets: FAST_BUCKETS,
  }),
  acks: registry.counter({ name: 'twinport.acks', unit: '{ack}', description: 'Acknowledgements sent to clients, by event name.', labels: ['event'] }),
  errors: registry.counter({ name: 'twinport.errors', unit: '{error}', description: 'Error events sent to clients, by code.', labels: ['error.type'] }),
  slowConsumers: registry.counter({ name: 'twinport.slow_consumers', unit: '{connection}', description: 'Clients disconnected because their send buffer passed maxSendBuffer.' }),
  sendBacklog: registry.gauge({ name: 'twinport.send.backlog', unit: 'By', description: 'Bytes written to WebSocket and event-stream clients and not yet taken by the kernel.' }),
  rooms: registry.gauge({ name: 'twinport.rooms', unit: '{room}', description: 'Rooms with at least one member on this node.' }),
  roomMembers: registry.gauge({ name: 'twinport.room.members', unit: '{member}', description: 'Room memberships on this node (a client in two rooms counts twice).' }),
  parkedSessions: registry.gauge({ name: 'twinport.sessions.parked', unit: '{session}', description: 'Sessions whose client is away, kept for a resume.' }),
  resumes: registry.counter({ name: 'twinport.session.resumes', unit: '{resume}', description: 'Session resumes asked for, by outcome (resumed, gap, unknown_session).', labels: ['outcome'] }),
  clusterPublished: registry.counter({ name: 'twinport.cluster.published', unit: '{message}', description: 'Broadcasts handed to the cluster.' }),
  clusterReceived: registry.counter({ name: 'twinport.cluster.received', unit: '{message}', description: 'Frames from other nodes delivered here.' }),
  eventLoopDelay: registry.histogram({ name: 'twinport.eventloop.delay', unit: 's', description: 'How late a 100 ms timer fires: event-loop delay.', buckets: FAST_BUCKETS }),
})

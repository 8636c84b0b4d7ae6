/**
 * `twinport/workers`: a route table as a Cloudflare Worker, HTTP through `toFetch` and
 * WebSockets in Durable Object hubs on the Hibernation API (`toWorker`), beside the pure core
 * and `toFetch`. No `node:*` anywhere behind it.
 */
export * from '../fetch/index.js'
export { DEFAULT_HUB_BINDING, toWorker, workersNotes, type WorkerApp, type WorkerOptions } from './to-worker.js'
export { HANDOFF_HEADER, type Handoff, type HubClass, type TwinportHub } from './hub-class.js'
export type { DurableObjectStateLike, WorkerWebSocket } from './workers-api.js'

/**
 * `twinport/workers`: a route table as a Cloudflare Worker, HTTP through `toFetch` and
 * WebSockets in Durable Object hubs on the Hibernation API (`toWorker`), beside the pure core
 * and `toFetch`. No `node:*` anywhere behind it.
 */
export * from '../fetch/index.js'
export { DEFAULT_HUB_BINDING, toWorker, workersNotes, type WaitUntil, type WorkerApp, type WorkerOptions } from './to-worker.js'
export type { BroadcastHubs } from './hub-cluster.js'
export type { HubTarget } from './hub-broadcast.js'
export { ATTACHMENT_LIMIT, AttachmentTooLarge, attachmentSize } from './attachment-size.js'
export { HANDOFF_HEADER, type Handoff, type HubClass, type TwinportHub } from './hub-class.js'
export type { DurableObjectStateLike, WorkerWebSocket } from './workers-api.js'

/**
 * `twinport`: the pure core, the portable engine and the `node:net` adapter. Import
 * `twinport/core` instead where no Node is available (Bun, Deno, a browser, a worker).
 */
export * from './core/index.js'
export { type NodeServerOptions, runServer, type Transport } from './node/run-server.js'
export { toFetch, type FetchHandler, type FetchOptions } from './fetch/to-fetch.js'
export { attach, type AttachableServer, type AttachedServer, type AttachOptions } from './node/attach.js'
export type { ServerHandle } from './engine/server-handle.js'
export { DEFAULT_RECOVERY, resolveOptions, resolveTlsOptions, type Pem, type ResolvedOptions, type ServerOptions, type TlsOptions } from './engine/options/server-options.js'
export { DEFAULT_LIMITS, type Limits } from './engine/options/limits.js'
export type { RateLimitOptions, RateOption } from './engine/options/rate-limit-options.js'
export type { LimitStore } from './engine/limit/limit-store.js'
export { createNamespaceRegistry, DEFAULT_NAMESPACE, type NamespaceRegistry, type RoomInfo } from './engine/registry/namespace-registry.js'
export { createLogger, type LoggerOptions, type NodeLogger } from './runtime/log/create-logger.js'
export type { ClientType } from './engine/connection/client.js'
export type { ClusterAdapter, ClusterHost, ClusterReplies, ClusterReply, ClusterTarget } from './engine/cluster/cluster-adapter.js'
export type { ClusterEventHandler, ClusterEventReply, ClusterHandle, ClusterQueryOptions, ClusterResult } from './engine/cluster/cluster-handle.js'
export { clusterClientId, parseClusterClientId, type ClusterClientId } from './engine/cluster/cluster-client-id.js'
export { inProcessCluster } from './engine/cluster/in-process-cluster.js'
export type { RegistryListener } from './engine/registry/namespace-registry.js'
export { type EventEnd, type Instrumentation, type InstrumentedServer, NO_INSTRUMENTATION, type ResumeOutcome } from './engine/instrumentation/instrumentation.js'
export { combineInstrumentation } from './engine/instrumentation/combine-instrumentation.js'
export type { MissedFrame, ReadRoomSince, ReadSince, RecoveryStore, RoomFrame, SessionRecord } from './engine/recovery/recovery-store.js'

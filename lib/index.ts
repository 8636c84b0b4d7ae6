/**
 * `twinport`: the pure core and the `node:net` shell. Import `twinport/core` instead
 * where no Node is available (Bun, Deno, a browser, a worker).
 */
export * from './core/index.js'
export { runServer } from './node/run-server.js'
export type { ServerHandle } from './node/server-handle.js'
export { resolveOptions, type ResolvedOptions, type ServerOptions } from './node/server-options.js'
export { DEFAULT_LIMITS, type Limits } from './node/limits.js'
export { createNamespaceRegistry, DEFAULT_NAMESPACE, type NamespaceRegistry, type RoomInfo } from './node/namespace-registry.js'
export { createLogger, type LoggerOptions, type NodeLogger } from './node/log/create-logger.js'
export type { ClientType } from './node/client.js'

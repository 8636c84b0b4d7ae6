/**
 * `twinport/bun`: the pure core and `runServer` on Bun. The same routes, options and
 * handle as `twinport` on Node.
 */
export * from '../core/index.js'
export * from '../admin/index.js'
export { runServer } from './run-server.js'
export { nodeFiles } from '../runtime/node-files.js'
export { WRITE_HIGH_WATER, type WriteFileError, type WriteFileOptions, writeFileFrom, type WrittenFile } from '../runtime/write-file-from.js'
export type { StaticFiles } from '../core/http/static/static-files.js'
export type { ServerHandle } from '../engine/server-handle.js'
export { DEFAULT_RECOVERY, resolveOptions, type ResolvedOptions, type ServerOptions, type TlsOptions } from '../engine/options/server-options.js'
export { DEFAULT_LIMITS, type Limits } from '../engine/options/limits.js'
export type { RateLimitOptions, RateOption } from '../engine/options/rate-limit-options.js'

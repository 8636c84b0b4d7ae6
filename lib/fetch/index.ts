/**
 * `twinport/fetch`: the pure core and `toFetch`, a route table's HTTP side as a web-standard
 * fetch handler for `Bun.serve`, `Deno.serve`, Cloudflare Workers and Hono. No `node:*`
 * anywhere behind it: it runs wherever `Request` and `Response` do.
 */
export * from '../core/index.js'
export { toFetch, type FetchHandler, type FetchOptions } from './to-fetch.js'
export type { StaticFiles } from '../core/http/static/static-files.js'
export type { ServerHandle } from '../engine/server-handle.js'
export { DEFAULT_RECOVERY, resolveOptions, type ResolvedOptions, type ServerOptions } from '../engine/options/server-options.js'
export { DEFAULT_LIMITS, type Limits } from '../engine/options/limits.js'

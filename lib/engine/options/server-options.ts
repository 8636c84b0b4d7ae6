/**
 * The options of `runServer`, their defaults, and their validation at start-up: a bad
 * option is a clear error naming it (io-ts decodes the untyped parts, since options often
 * come from configuration files and environment variables).
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'
import type { CorsOptions } from '../../core/http/cors-config.js'
import type { Logger } from '../../core/log/logger.js'
import type { HttpMiddleware } from '../../core/route/http-middleware.js'
import type { WsMiddleware } from '../../core/route/ws-middleware.js'
import type { RouteSource } from '../../core/route/route.js'
import type { ClusterAdapter } from '../cluster/cluster-adapter.js'
import type { RecoveryStore } from '../recovery/recovery-store.js'
import type { MetricsRegistry } from '../../core/metrics/metrics-registry.js'
import type { Instrumentation } from '../instrumentation/instrumentation.js'
import { type CompressConfig, type CompressOptions, resolveCompressConfig } from '../../core/http/compress/compress-config.js'
import type { DeflateConfig, DeflateOptions } from '../../core/ws/extensions/deflate-config.js'
import { resolveDeflateConfig } from '../../core/ws/extensions/resolve-deflate-config.js'
import { DEFAULT_LIMITS, type Limits } from './limits.js'
import type { RateLimitOptions } from './rate-limit-options.js'
import { TLS_FIELDS, tlsCodec, type TlsOptions } from './tls-options.js'

export type { Pem, TlsOptions } from './tls-options.js'

export interface ServerOptions {
  /** Interface to listen on (default `0.0.0.0`, seed §1). */
  readonly host?: string
  /** Port (default `6001`, seed §1); `0` picks a free one. */
  readonly port?: number
  /** Debug mode: `handle.log()` writes, and the default logger shows debug entries. */
  readonly debug?: boolean
  /** Routes: tables, controllers or single routes, nested at will. */
  readonly routes?: RouteSource
  /** WebSocket middleware, first outermost. */
  readonly wsMiddleware?: readonly WsMiddleware[]
  /** HTTP middleware, first outermost. */
  readonly httpMiddleware?: readonly HttpMiddleware[]
  /** CORS configuration (seed §2.7; defaults when absent), or `false` for no CORS headers. */
  readonly cors?: CorsOptions | false
  /** Origins allowed to open a WebSocket (default `['*']`, any). */
  readonly allowedOrigins?: readonly string[]
  /** WebSocket subprotocols the server speaks, in preference order. */
  readonly protocols?: readonly string[]
  /** Where log entries go; the console logger by default. */
  readonly logger?: Logger
  /** Limits and time-outs; each missing one takes its default. */
  readonly limits?: Partial<Limits>
  /**
   * The rest of the cluster: `redisAdapter(…)` from `twinport/redis` for many processes or
   * hosts. Default: in-process (this server alone, nothing to install or run).
   */
  readonly cluster?: ClusterAdapter
  /**
   * Sessions for clients that ask for them (`tp_v=1`, as `twinport/client` does): numbered
   * messages, recovery of rooms, data and missed messages within `windowMs` (default 2
   * minutes), retried requests answered once. `false` turns them off. With a `store` shared
   * by every node (`redisRecoveryStore` from `twinport/redis`), sessions are also written
   * there as they change, so a client whose node died resumes on any node; `loadTimeoutMs`
   * bounds how long an upgrade waits for the store (default 3000), `flushMs` how long
   * changes gather before they are written (default 10), `maxPendingBytes` how many bytes of
   * messages may wait for the store before new ones are not recorded (default 64 MiB).
   */
  readonly recovery?: RecoveryOptions | false
  /**
   * WebSocket compression (permessage-deflate, RFC 7692), off by default: `true` offers it
   * with the defaults (`server_no_context_takeover`, messages of 1 KiB and more compressed),
   * an object changes any of them (`{ threshold: 256, serverMaxWindowBits: 12 }`). A client
   * that does not offer it, or a runtime with no DEFLATE codec, gets plain frames.
   */
  readonly perMessageDeflate?: boolean | DeflateOptions
  /**
   * HTTP compression of answers (gzip, Brotli, zstd where the runtime has it), off by default:
   * `true` turns it on with the defaults (bodies of 1 KiB and more, of compressible types, in
   * the coding the request prefers by its Accept-Encoding), an object changes any of them
   * (`{ threshold: 256, codings: ['gzip'] }`). Streamed bodies are compressed as they are
   * sent, Server-Sent Events flushed one by one.
   */
  readonly compress?: boolean | CompressOptions
  /** Serve `https://` and `wss://` with this key and certificate (plain HTTP when absent). */
  readonly tls?: TlsOptions
  /**
   * Connection limits (per address, handshake rates), the trusted proxies that say a client's
   * address, the abuse log's window, and where `rateLimit` routes keep their buckets: see
   * `RateLimitOptions`. Nothing is limited by default.
   */
  readonly rateLimits?: RateLimitOptions
  /**
   * The server's metrics (on by default; `false` turns them off): what `metricsRoute()` serves.
   * `node` labels every series with this node's name (default:
   * the cluster adapter's `nodeId` when a `cluster` is given, else no label); `registry` puts
   * the instruments in a registry of the application's (its own labels then hold).
   */
  readonly metrics?: boolean | MetricsOptions
  /**
   * More instrumentation beside the metrics, called at the same points (docs/architecture.md,
   * "The instrumentation interface"): a tracer such as `otelInstrumentation(…)` from
   * `twinport/otel`, which makes a span per HTTP request, event dispatch and cluster query,
   * and exports the metrics through the OpenTelemetry Meter API. None by default.
   */
  readonly instrumentation?: Instrumentation
}

/** The `metrics` option. */
export interface MetricsOptions {
  /** The `node` label on every series (the process's name in its cluster). */
  readonly node?: string
  /** A registry of the application's to put the server's instruments in (one is made otherwise). */
  readonly registry?: MetricsRegistry
}

/** The `recovery` option. */
export interface RecoveryOptions {
  readonly windowMs?: number
  readonly maxMessages?: number
  /** Where sessions are kept for other nodes (and restarts); in this process only when absent. */
  readonly store?: RecoveryStore
  readonly loadTimeoutMs?: number
  readonly flushMs?: number
  /**
   * Bytes of numbered messages (their text) that may wait for the store; past it new ones are
   * not recorded (a resume across them gets `resync: 'gap'`) and a warning is logged.
   */
  readonly maxPendingBytes?: number
}

/** The recovery defaults (docs/decisions.md, "Client sessions and recovery"). */
export const DEFAULT_RECOVERY = { windowMs: 120_000, maxMessages: 1000, maxAnswers: 256, loadTimeoutMs: 3000, flushMs: 10, maxPendingBytes: 64 * 1024 * 1024 } as const

/** Session settings, every one set. */
export interface ResolvedRecovery {
  readonly windowMs: number
  readonly maxMessages: number
  readonly maxAnswers: number
  readonly loadTimeoutMs: number
  readonly flushMs: number
  readonly maxPendingBytes: number
  readonly store?: RecoveryStore
}

export interface ResolvedOptions {
  readonly host: string
  readonly port: number
  readonly debug: boolean
  readonly allowedOrigins: readonly string[]
  readonly protocols: readonly string[]
  readonly limits: Limits
  /** Session limits, or `undefined` when sessions are off. */
  readonly recovery: ResolvedRecovery | undefined
  /** The permessage-deflate settings, every one set (`enabled: false` when off). */
  readonly perMessageDeflate: DeflateConfig
  /** The HTTP compression settings, every one set (`enabled: false` when off). */
  readonly compress: CompressConfig
  /** Present when the server speaks TLS. */
  readonly tls?: TlsOptions
}

const positiveInt = new t.Type<number, number, unknown>(
  'a positive integer',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u > 0,
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u > 0 ? t.success(u) : t.failure(u, c)),
  (n) => n,
)

const portNumber = new t.Type<number, number, unknown>(
  'an integer from 0 to 65535',
  (u): u is number => typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= 65535,
  (u, c) => (typeof u === 'number' && Number.isInteger(u) && u >= 0 && u <= 65535 ? t.success(u) : t.failure(u, c)),
  (n) => n,
)

const fn = new t.Type<unknown, unknown, unknown>(
  'a function',
  (u): u is unknown => typeof u === 'function',
  (u, c) => (typeof u === 'function' ? t.success(u) : t.failure(u, c)),
  (u) => u,
)

const loggerShape = t.type({ error: fn, warning: fn, info: fn, debug: fn, exception: fn })

const clusterShape = t.type({
  nodeId: t.string,
  attach: fn,
  publish: fn,
  sendTo: fn,
  request: fn,
  roomOpened: fn,
  roomClosed: fn,
  namespaceOpened: fn,
  namespaceClosed: fn,
  close: fn,
})

const storeShape = t.type({ saveSession: fn, loadSession: fn, append: fn, readSince: fn, deleteSession: fn })

const metricsCodec = t.union([t.boolean, t.exact(t.partial({ node: t.string, registry: t.type({ counter: fn, gauge: fn, histogram: fn, instruments: fn }) }))])

const limitProps = Object.fromEntries(Object.keys(DEFAULT_LIMITS).map((k) => [k, positiveInt])) as Record<keyof Limits, typeof positiveInt>

const OptionsCodec = t.partial({
  host: t.string,
  port: portNumber,
  debug: t.boolean,
  wsMiddleware: t.readonlyArray(fn),
  httpMiddleware: t.readonlyArray(fn),
  allowedOrigins: t.readonlyArray(t.string),
  protocols: t.readonlyArray(t.string),
  logger: loggerShape,
  limits: t.exact(t.partial(limitProps)),
  cluster: clusterShape,
  recovery: t.union([
    t.literal(false),
    t.exact(t.partial({ windowMs: positiveInt, maxMessages: positiveInt, store: storeShape, loadTimeoutMs: positiveInt, flushMs: positiveInt, maxPendingBytes: positiveInt })),
  ]),
  tls: tlsCodec,
  metrics: metricsCodec,
  instrumentation: t.type({ active: t.boolean, tracing: t.boolean, requestStarted: fn, requestAnswered: fn, eventStarted: fn, eventSettled: fn, traceOf: fn }),
})

// "limits.maxBody: expected a positive integer, got -1" from an io-ts error.
const describe = (error: t.ValidationError): string => {
  const path = error.context
    .map((c) => c.key)
    .filter((k) => k !== '')
    .join('.')
  const expected = error.context[error.context.length - 1]?.type.name ?? 'a valid value'
  return `${path === '' ? 'options' : path}: expected ${expected}, got ${show(error.value)}`
}

// A bad value as the message shows it: JSON where it can be.
const show = (value: unknown): string => {
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

/**
 * Checks the options and fills in defaults. Left: one line per bad option.
 *
 * @example
 * resolveOptions({ port: 70000 }) // left(['port: expected an integer from 0 to 65535, got 70000'])
 */
export const resolveOptions = (options: ServerOptions): E.Either<readonly string[], ResolvedOptions> => {
  if (typeof options !== 'object' || options === null) return E.left(['options: expected an object'])
  const decoded = OptionsCodec.decode(options)
  if (E.isLeft(decoded)) return E.left([...new Set(decoded.left.map(describe))])
  const unknownLimits = Object.keys(options.limits ?? {}).filter((k) => !(k in DEFAULT_LIMITS))
  if (unknownLimits.length > 0) return E.left(unknownLimits.map((k) => `limits.${k}: not a known limit (known: ${Object.keys(DEFAULT_LIMITS).join(', ')})`))
  const unknownTls = Object.keys(options.tls ?? {}).filter((k) => !(TLS_FIELDS as readonly string[]).includes(k))
  if (unknownTls.length > 0) return E.left(unknownTls.map((k) => `tls.${k}: not a TLS option (known: ${TLS_FIELDS.join(', ')})`))
  const limits: Limits = { ...DEFAULT_LIMITS, ...options.limits }
  const deflate = resolveDeflate(options.perMessageDeflate)
  if (E.isLeft(deflate)) return E.left([deflate.left])
  const compress = resolveCompressConfig(options.compress)
  if (E.isLeft(compress)) return E.left([compress.left])
  return E.right({
    host: options.host ?? '0.0.0.0',
    port: options.port ?? 6001,
    debug: options.debug ?? false,
    allowedOrigins: options.allowedOrigins ?? ['*'],
    protocols: options.protocols ?? [],
    limits,
    recovery: options.recovery === false ? undefined : { ...DEFAULT_RECOVERY, ...options.recovery },
    perMessageDeflate: deflate.right,
    compress: compress.right,
    ...(options.tls === undefined ? {} : { tls: options.tls }),
  })
}

// `perMessageDeflate`: a flag or a settings object, each setting checked by the core.
const resolveDeflate = (option: unknown): E.Either<string, DeflateConfig> => {
  const plainObject = typeof option === 'object' && option !== null && !Array.isArray(option)
  if (option !== undefined && typeof option !== 'boolean' && !plainObject) {
    return E.left(`perMessageDeflate: expected true, false or an object of settings, got ${show(option)}`)
  }
  const config = resolveDeflateConfig(option as boolean | DeflateOptions | undefined)
  if (E.isRight(config)) return config
  const { option: name, expected, value } = config.left
  return E.left(`perMessageDeflate.${name}: expected ${expected}, got ${show(value)}`)
}

/**
 * Checks the argument of `server.setSecureContext` the way `runServer` checks `tls`. Left:
 * one line per problem, named as at start-up (`tls.key: …`).
 *
 * @example
 * resolveTlsOptions({ key: pem, cert: pem })  // right({ key: pem, cert: pem })
 * resolveTlsOptions({ cert: pem })            // left(['tls.key: expected PEM text (…), got undefined'])
 */
export const resolveTlsOptions = (tls: TlsOptions): E.Either<readonly string[], TlsOptions> => {
  if (typeof tls !== 'object' || tls === null) return E.left(['tls: expected an object with key and cert'])
  return E.map((resolved: ResolvedOptions) => resolved.tls as TlsOptions)(resolveOptions({ tls }))
}

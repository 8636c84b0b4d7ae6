/**
 * The `rateLimits` option of `runServer`: the trusted proxies (whose `X-Forwarded-For` says
 * the client's address), the connections one address may hold, the handshake rates, the
 * window of the abuse log, and where the buckets live. Checked once with io-ts; the defaults
 * limit nothing (docs/decisions.md "Rate limits"). Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import * as t from 'io-ts'

/** A rate: `limit` per `windowMs`, in bursts of `burst` at most (default `limit`). */
export interface RateOption {
  readonly limit: number
  readonly windowMs: number
  readonly burst?: number
}

export interface RateLimitOptions {
  /**
   * How many proxies of yours are in front of the server (default 0: none, the socket's peer
   * is the client). With N, a client's address is the N-th entry of `X-Forwarded-For` from
   * the right: the address your outermost proxy saw (docs/guide.md "Behind a reverse proxy").
   */
  readonly trustedProxies?: number
  /** Most WebSocket connections one address may hold on this node (no limit by default); past it an upgrade gets 429. */
  readonly maxConnectionsPerIp?: number
  /** Upgrade requests this node accepts, all addresses together (no limit by default); past it 503 with `Retry-After`. */
  readonly handshakes?: RateOption
  /** Upgrade requests one address may make on this node (no limit by default); past it 429 with `Retry-After`. */
  readonly handshakesPerIp?: RateOption
  /** The window of the abuse log: bad input and refusals are logged once per window, with counts (default 10 s). */
  readonly logWindowMs?: number
  /**
   * Where `rateLimit` routes keep their buckets: `'cluster'` (default) in the cluster adapter's
   * store when it has one (the Redis adapter does), else in this process; `'local'`: in this
   * process always.
   */
  readonly store?: 'cluster' | 'local'
}

/** The option, every setting filled in. */
export interface ResolvedRateLimits {
  readonly trustedProxies: number
  readonly maxConnectionsPerIp: number | undefined
  readonly handshakes: RateOption | undefined
  readonly handshakesPerIp: RateOption | undefined
  readonly logWindowMs: number
  readonly store: 'cluster' | 'local'
}

const count = new t.Type<number, number, unknown>(
  'a non-negative integer',
  (u): u is number => typeof u === 'number' && Number.isSafeInteger(u) && u >= 0,
  (u, c) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 ? t.success(u) : t.failure(u, c)),
  (n) => n,
)
const positive = new t.Type<number, number, unknown>(
  'a positive number',
  (u): u is number => typeof u === 'number' && Number.isFinite(u) && u > 0,
  (u, c) => (typeof u === 'number' && Number.isFinite(u) && u > 0 ? t.success(u) : t.failure(u, c)),
  (n) => n,
)
const rate = t.intersection([t.type({ limit: positive, windowMs: positive }), t.partial({ burst: positive })])
const Codec = t.exact(
  t.partial({
    trustedProxies: count,
    maxConnectionsPerIp: positive,
    handshakes: rate,
    handshakesPerIp: rate,
    logWindowMs: positive,
    store: t.union([t.literal('cluster'), t.literal('local')]),
  }),
)

/**
 * Checks the option and fills in the defaults; Left: one line per bad setting.
 *
 * @example
 * resolveRateLimits({ trustedProxies: 1 }) // right({ trustedProxies: 1, logWindowMs: 10000, store: 'cluster', … })
 */
export const resolveRateLimits = (option: RateLimitOptions | undefined): E.Either<readonly string[], ResolvedRateLimits> => {
  const decoded = Codec.decode(option ?? {})
  if (E.isLeft(decoded)) {
    return E.left(decoded.left.map((e) => `rateLimits.${e.context.map((c) => c.key).filter((k) => k !== '' && !/^\d+$/.test(k)).join('.')}: expected ${e.context.at(-1)?.type.name ?? 'a valid value'}`))
  }
  const o = decoded.right
  return E.right({
    trustedProxies: o.trustedProxies ?? 0,
    maxConnectionsPerIp: o.maxConnectionsPerIp,
    handshakes: o.handshakes,
    handshakesPerIp: o.handshakesPerIp,
    logWindowMs: o.logWindowMs ?? 10_000,
    store: o.store ?? 'cluster',
  })
}

/**
 * `startLimits`: a server's rate limits from its `rateLimits` option and its cluster adapter:
 * the abuse log, the limiter `rateLimit` routes reach through their context (its buckets in
 * the cluster's store when the adapter has one, else in this process) and the gate of the
 * connection limits (absent when none is set). Throws an Error naming a bad setting, as
 * `createEngine` does for every option. Must not import `node:*`, Buffer or process.
 */
import * as E from 'fp-ts/lib/Either.js'
import type { Logger } from '../../core/log/logger.js'
import { CLOSE_CODE } from '../../core/ws/close-code.js'
import type { ClusterAdapter } from '../cluster/cluster-adapter.js'
import type { Timers } from '../platform.js'
import { type ClientTable, memberOf } from '../registry/client-table.js'
import { type RateLimitOptions, resolveRateLimits } from '../options/rate-limit-options.js'
import { AbuseLog } from './abuse-log.js'
import { ConnectionGate } from './connection-gate.js'
import { LocalBuckets } from './local-buckets.js'
import { ServerLimiter } from './server-limiter.js'

/** What a server's rate limits are made of. */
export interface StartedLimits {
  readonly limiter: ServerLimiter
  readonly gate: ConnectionGate | undefined
  readonly abuse: AbuseLog
}

/**
 * Builds them.
 *
 * @example
 * const { limiter, gate, abuse } = startLimits({ maxConnectionsPerIp: 10 }, cluster, table, timers, logger)
 */
export const startLimits = <S>(option: RateLimitOptions | undefined, cluster: ClusterAdapter, table: ClientTable<S>, timers: Timers, logger: Logger): StartedLimits => {
  const resolved = resolveRateLimits(option)
  if (E.isLeft(resolved)) throw new Error(`runServer: invalid options\n  ${resolved.left.join('\n  ')}`)
  const settings = resolved.right
  const abuse = new AbuseLog(logger, timers, settings.logWindowMs)
  const buckets = new LocalBuckets(() => timers.now())
  const limiter = new ServerLimiter({
    buckets,
    store: settings.store === 'cluster' ? cluster.limitStore : undefined,
    trustedProxies: settings.trustedProxies,
    abuse,
    now: () => timers.now(),
    // After the turn, so the refused event's error leaves before the close frame.
    closeForAbuse: (clientId) =>
      timers.afterIo(() => memberOf(table.all.get(clientId))?.close(CLOSE_CODE.POLICY_VIOLATION, 'rate limit exceeded')),
  })
  const gate = new ConnectionGate(settings, buckets, limiter, abuse)
  return { limiter, gate: gate.active ? gate : undefined, abuse }
}

/**
 * `ConnectionGate`: the connection limits of the `rateLimits` option, decided on an upgrade
 * request before anything else is done for it (no SHA-1, no middleware): the handshake rate
 * of the whole node (503 with `Retry-After` past it), of one address (429 with
 * `Retry-After`), and the WebSocket connections one address holds (429).
 * Per node: each node guards its own sockets. Must not import `node:*`, Buffer or process.
 */
import { errorResponse } from '../../core/http/response.js'
import type { HttpRequest, Response } from '../../core/http/types.js'
import { bucketOf } from '../../core/route/rate-limit-rule.js'
import type { BucketRule } from '../../core/limit/take-token.js'
import type { ResolvedRateLimits } from '../options/rate-limit-options.js'
import type { AbuseLog } from './abuse-log.js'
import type { LocalBuckets } from './local-buckets.js'
import type { ServerLimiter } from './server-limiter.js'

const retryAfter = (ms: number): Readonly<Record<string, string>> => ({ 'Retry-After': String(Math.max(1, Math.ceil(ms / 1000))) })

export class ConnectionGate {
  private readonly all: BucketRule | undefined
  private readonly perIp: BucketRule | undefined
  // Connections held by each address, and the address each counted client was counted under.
  private readonly held = new Map<string, number>()
  private readonly counted = new Map<object, string>()

  constructor(
    private readonly settings: ResolvedRateLimits,
    private readonly buckets: LocalBuckets,
    private readonly limiter: ServerLimiter,
    private readonly abuse: AbuseLog,
  ) {
    this.all = settings.handshakes === undefined ? undefined : bucketOf(settings.handshakes)
    this.perIp = settings.handshakesPerIp === undefined ? undefined : bucketOf(settings.handshakesPerIp)
  }

  /** Whether the gate checks anything (a server without connection limits skips it). */
  get active(): boolean {
    return this.all !== undefined || this.perIp !== undefined || this.settings.maxConnectionsPerIp !== undefined
  }

  /** An upgrade request from `peer`: the refusal to answer, or `undefined` to go on. */
  check(request: HttpRequest, peer: string | undefined): Response | undefined {
    if (this.all !== undefined) {
      const verdict = this.buckets.take('~handshakes', '*', this.all)
      if (!verdict.allowed) {
        this.abuse.note('upgrade refused: handshake rate of the node (503)')
        return errorResponse(503, 'too many handshakes', retryAfter(verdict.retryAfterMs))
      }
    }
    const address = this.limiter.addressOf(request, peer)
    if (address === undefined) return undefined
    if (this.perIp !== undefined) {
      const verdict = this.buckets.take('~handshakes-ip', address, this.perIp)
      if (!verdict.allowed) {
        this.abuse.note('upgrade refused: handshake rate of an address (429)', { address })
        return errorResponse(429, 'too many handshakes', retryAfter(verdict.retryAfterMs))
      }
    }
    const max = this.settings.maxConnectionsPerIp
    if (max !== undefined && (this.held.get(address) ?? 0) >= max) {
      this.abuse.note('upgrade refused: connections of an address (429)', { address, max })
      return errorResponse(429, 'too many connections from this address')
    }
    return undefined
  }

  /** `client`'s upgrade was accepted: it holds one of its address's places until `closed`. */
  opened(client: object, request: HttpRequest, peer: string | undefined): void {
    if (this.settings.maxConnectionsPerIp === undefined) return
    const address = this.limiter.addressOf(request, peer)
    if (address === undefined) return
    this.held.set(address, (this.held.get(address) ?? 0) + 1)
    this.counted.set(client, address)
  }

  /** `client`'s connection is gone. */
  closed(client: object): void {
    const address = this.counted.get(client)
    if (address === undefined) return
    this.counted.delete(client)
    const left = (this.held.get(address) ?? 1) - 1
    if (left <= 0) this.held.delete(address)
    else this.held.set(address, left)
  }
}

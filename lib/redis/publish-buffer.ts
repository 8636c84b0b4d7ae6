/**
 * What a node has published and Redis has not yet taken: messages in flight and messages
 * waiting while Redis is away, under one bound in bytes. Past the bound a publish is
 * dropped and counted (docs/decisions.md "Redis unavailable"): memory never grows without
 * limit, local delivery never waits, and what fits is sent, in order, when Redis is back
 * (all of it after an outage of Redis; one target's after a cluster's failover of its master).
 */

/** A message waiting for Redis, with what is needed to send it. */
export interface Waiting<K> {
  readonly keys: K
  readonly message: Uint8Array
  /** Its number among its publisher's publishes (sent again with it, so Redis runs it once). */
  readonly id?: number
}

export class PublishBuffer<K> {
  private waiting: Waiting<K>[] = []
  private failed: Waiting<K>[] = []
  /** Bytes waiting plus bytes in flight. */
  bytes = 0
  dropped = 0

  constructor(readonly maxBytes: number) {}

  /** Room for `size` more bytes (waiting or in flight)? Counts a drop when not. */
  admit(size: number): boolean {
    if (this.bytes + size > this.maxBytes) {
      this.dropped += 1
      return false
    }
    this.bytes += size
    return true
  }

  /** Keeps an admitted message until Redis is back. */
  hold(entry: Waiting<K>): void {
    this.waiting.push(entry)
  }

  /**
   * A message whose send failed with the connection: it goes out again before the ones
   * that were waiting (failures arrive in the order the messages were sent).
   */
  fail(entry: Waiting<K>): void {
    this.failed.push(entry)
  }

  /** An admitted message reached Redis (or failed for good): its bytes are free. */
  settled(size: number): void {
    this.bytes -= size
  }

  /** The oldest message waiting whose keys match (left in place), to try before the others. */
  first(match: (keys: K) => boolean): Waiting<K> | undefined {
    return this.failed.find((e) => match(e.keys)) ?? this.waiting.find((e) => match(e.keys))
  }

  /** Takes out one message (tried and sent, or refused for good); false when it is no longer here. */
  remove(entry: Waiting<K>): boolean {
    for (const list of [this.failed, this.waiting]) {
      const i = list.indexOf(entry)
      if (i >= 0) {
        list.splice(i, 1)
        return true
      }
    }
    return false
  }

  /** Every message waiting whose keys match, oldest first, to send now (the others stay). */
  take(match: (keys: K) => boolean): Waiting<K>[] {
    const taken = [...this.failed.filter((e) => match(e.keys)), ...this.waiting.filter((e) => match(e.keys))]
    this.failed = this.failed.filter((e) => !match(e.keys))
    this.waiting = this.waiting.filter((e) => !match(e.keys))
    return taken
  }

  /** Everything waiting, oldest first, to send now. */
  takeAll(): Waiting<K>[] {
    const all = [...this.failed, ...this.waiting]
    this.failed = []
    this.waiting = []
    return all
  }

  get length(): number {
    return this.failed.length + this.waiting.length
  }
}

/**
 * The little the adapter needs of a Redis client, so the client library stays behind one
 * file (`node-redis-port.ts`; docs/decisions.md "Redis client"): commands on one connection,
 * subscriptions on another, and word of each connection going down and coming back.
 */

/** A command argument: text or bytes. */
export type RedisArg = string | Uint8Array

export interface RedisPort {
  /**
   * Runs a command on the command connection. `key` routes it in a Redis Cluster (the first
   * key it touches); `bytes` asks for bulk strings as bytes instead of text; `timer: false`
   * when the caller bounds the wait itself, so the client sets no timer of its own for it.
   */
  command(args: readonly RedisArg[], options?: { readonly key?: string; readonly bytes?: boolean; readonly timer?: boolean }): Promise<unknown>
  /**
   * Listens to a channel (SSUBSCRIBE when `sharded`, SUBSCRIBE otherwise); messages as bytes.
   * The same listener subscribed twice to a channel hears each message once.
   */
  subscribe(channel: string, sharded: boolean, listener: (message: Uint8Array) => void): Promise<void>
  unsubscribe(channel: string, sharded: boolean): Promise<void>
  /**
   * Whether the client holds a listener of this port's for `channel` now. A client can lose
   * one without a word (node-redis moves a failed-over master's subscriptions to its heir
   * in a promise nobody awaits; when that SSUBSCRIBE fails, the listeners are gone). A port
   * without it: the adapter takes a subscription once made as kept.
   */
  listening?(channel: string, sharded: boolean): boolean
  /** Whether the command connection can take commands now. */
  readonly commandsReady: boolean
  /**
   * Whether a command's error is Redis' answer that sending it again will not change (a
   * script error), as opposed to a connection lost or a cluster failing over (`CLUSTERDOWN`,
   * `TRYAGAIN`, `LOADING`, `MASTERDOWN`), after which the same command may go through. A
   * port without it: every error while `commandsReady` counts as refused.
   */
  refused?(error: unknown): boolean
  /**
   * Connection events: `ready` (commands connection up, again after every reconnect),
   * `subscriberReady` (subscriptions restored after a reconnect; on a cluster, a node's
   * connection ready, e.g. the promoted replica's after a failover), `down` (a connection lost).
   */
  on(event: 'ready' | 'subscriberReady', listener: () => void): void
  on(event: 'down', listener: (error: Error) => void): void
  /** Connects what this port opened itself (a given client is connected if it is not yet). */
  connect(): Promise<void>
  /** Closes what this port opened itself; a client given by the application is left open. */
  close(): Promise<void>
}

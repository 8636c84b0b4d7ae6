/**
 * `ServerHealth`: what a server says of itself to `healthRoute` (through the `HttpContext`):
 * whether it is draining and how its cluster link is. Types only. Pure and portable.
 */

/** The state of the server's link to the rest of its cluster. */
export type ClusterLinkState = 'alone' | 'starting' | 'up' | 'down' | 'closed'

/** A server's state, read when asked. */
export interface ServerHealth {
  /** `close()` was called: the server refuses new connections and finishes the ones it has. */
  readonly draining: boolean
  /** `alone` with the default in-process cluster; otherwise the adapter's link. */
  readonly cluster: ClusterLinkState
  /** This node's id in its cluster. */
  readonly node: string
}

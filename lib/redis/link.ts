/**
 * The state of a node's link to Redis, one value instead of flags: the adapter
 * (redis-adapter.ts) alone moves it; its parts read it. Types and pure predicates only:
 * imports nothing.
 *
 * ```
 * starting ──► joining ──► up ◄──► down
 *    └────────────┴────────┴────────┴──► closed (for good)
 * ```
 */

/**
 * - `starting`: connecting, finding out what the server has, subscribing to this node's own
 *   channels; targets opened meanwhile are subscribed once it is done. `warned`: the one
 *   warning that Redis cannot be reached yet was given.
 * - `joining`: subscribed; the targets are being subscribed and the first heartbeat is on
 *   its way. Broadcasts wait, as when down.
 * - `up`: Redis takes commands; broadcasts, direct frames and requests go out.
 * - `down`: the command connection was lost at `since` (the host's clock); broadcasts wait
 *   in the publish buffer until Redis is `ready` again.
 * - `closed`: `close()` was called; nothing goes out any more and no event moves it on.
 */
export type Link =
  | { readonly state: 'starting'; readonly warned: boolean }
  | { readonly state: 'joining' }
  | { readonly state: 'up' }
  | { readonly state: 'down'; readonly since: number }
  | { readonly state: 'closed' }

/** Subscribed to its own channels, not closed: targets are subscribed as they open, and connection events count. */
export const linkStarted = (link: Link): boolean => link.state === 'joining' || link.state === 'up' || link.state === 'down'

/**
 * `LinkState`: where a client's link to the server is, as one tagged union whose tags are the
 * states `client.state` tells (docs/client.md), so no mapping stands between them. Types
 * only: nothing here exists at run time. Part of `connect`.
 *
 * Imports nothing at run time.
 */
import type { Closed } from './pending-requests.js'

/**
 * (The socket itself, while there is one, is held beside it.)
 * - `connecting`: the first connection is being opened;
 * - `open`: connected;
 * - `reconnecting`: attempt `attempt` (1 and up), waiting for the backoff `timer`, then
 *   opening its socket; `opened` says whether any connection opened before (the next open
 *   is then `reconnected`, not `open`);
 * - `closed`: for good, with the close's code and reason as the failure of what is asked of it
 *   after.
 */
export type LinkState =
  | { readonly _tag: 'connecting' }
  | { readonly _tag: 'open' }
  | { readonly _tag: 'reconnecting'; readonly attempt: number; readonly opened: boolean; readonly timer?: unknown }
  | { readonly _tag: 'closed'; readonly closed: Closed }

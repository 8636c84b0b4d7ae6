/**
 * `LinkState`: where a client's link to the server is, as one tagged union whose tags are the
 * states `client.state` tells (docs/client.md), so no mapping stands between them. Types
 * only: nothing here exists at run time. Part of `connect`.
 *
 * Imports nothing at run time.
 */
import type { Closed } from './pending-requests.js'
import type { WebSocketLike } from './web-socket-like.js'

/**
 * - `connecting`: the first connection is being opened (`socket` is `undefined` until the
 *   constructor returns, and once the socket is dropped);
 * - `open`: connected (`socket` `undefined` once dropped, until the end is handled);
 * - `reconnecting`: attempt `attempt` (1 and up), waiting for the backoff `timer`, then
 *   opening its `socket`; `opened` says whether any connection opened before (the next open
 *   is then `reconnected`, not `open`);
 * - `closed`: for good, with the close's code and reason as the failure of what is asked of it
 *   after.
 */
export type LinkState =
  | { readonly state: 'connecting'; readonly socket?: WebSocketLike | undefined }
  | { readonly state: 'open'; readonly socket?: WebSocketLike | undefined }
  | {
      readonly state: 'reconnecting'
      readonly attempt: number
      readonly opened: boolean
      readonly timer?: unknown
      readonly socket?: WebSocketLike | undefined
    }
  | { readonly state: 'closed'; readonly closed: Closed }

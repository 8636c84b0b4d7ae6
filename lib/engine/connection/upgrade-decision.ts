/**
 * `UpgradeDecision`: what the engine decided about one WebSocket upgrade request, as a value.
 * The HTTP connection keeps it in the slot of that request (lib/engine/connection/http-connection.ts) until
 * the answers before it are written; then a refusal is sent, or the socket is handed over
 * with everything the hand-over needs: the validated handshake, the permessage-deflate
 * agreement, the headers a middleware added to the 101, and why a resume from the recovery
 * store failed. Nothing is looked up again by request. Types only; imports nothing at run time.
 */
import type { Header, Response } from '../../core/http/types.js'
import type { AppClose } from '../../core/ws/app-close.js'
import type { DeflateAgreement } from '../../core/ws/extensions/accept-deflate-offer.js'
import type { ResyncReason } from '../../core/ws/session-wire.js'
import type { Upgrade } from '../../core/ws/validate-upgrade.js'

/** The upgrade is refused: `response` is sent, then the connection closes. */
export interface UpgradeRefused {
  readonly _tag: 'Refused'
  readonly response: Response
}

/** The upgrade is accepted: the 101 and the WebSocket connection follow from these facts. */
export interface UpgradeAccepted {
  readonly _tag: 'Accepted'
  /** The handshake the core validated (RFC 6455 §4.2.1). */
  readonly upgrade: Upgrade
  /** permessage-deflate (RFC 7692), when both sides agreed on it. */
  readonly agreement: DeflateAgreement | undefined
  /** Headers a middleware added to the acceptance (a cookie, say): sent with the 101. */
  readonly headers: readonly Header[] | undefined
  /** Why the recovery store could not serve the resume asked for (a fresh session follows). */
  readonly resync: ResyncReason | undefined
  /**
   * Set when the middleware refused (4xx) a client that reads refusals as close codes
   * (`tp_c=1` or `tp_v=1`): the 101 is followed at once by a close frame with this code and
   * reason, and the connection becomes no WebSocket client (docs/protocol.md, "Refused upgrades and kicks").
   */
  readonly refusal?: AppClose
}

export type UpgradeDecision = UpgradeRefused | UpgradeAccepted

/** A refusal with `response`. */
export const refused = (response: Response): UpgradeRefused => ({ _tag: 'Refused', response })

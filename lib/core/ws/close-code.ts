/**
 * Close status codes (RFC 6455 §7.4) and which of them may travel in a close frame.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** The codes RFC 6455 §7.4.1 names, plus the registered 1012–1014. */
export const CLOSE_CODE = Object.freeze({
  NORMAL: 1000,
  GOING_AWAY: 1001,
  PROTOCOL_ERROR: 1002,
  UNSUPPORTED_DATA: 1003,
  /** Never on the wire: "the close frame had no code". */
  NO_STATUS: 1005,
  /** Never on the wire: "the connection dropped without a close frame". */
  ABNORMAL: 1006,
  INVALID_PAYLOAD: 1007,
  POLICY_VIOLATION: 1008,
  MESSAGE_TOO_BIG: 1009,
  MANDATORY_EXTENSION: 1010,
  INTERNAL_ERROR: 1011,
  SERVICE_RESTART: 1012,
  TRY_AGAIN_LATER: 1013,
  BAD_GATEWAY: 1014,
} as const)

/**
 * Whether a code may appear in a close frame (RFC 6455 §7.4.1–§7.4.2): 1000–1003 and
 * 1007–1014 (defined or registered), and 3000–4999 (libraries and applications). 1004–1006,
 * 1015 and everything else are refused (1002).
 *
 * @example
 * isValidCloseCode(1000) // true
 * isValidCloseCode(1005) // false
 */
export const isValidCloseCode = (code: number): boolean =>
  (code >= 1000 && code <= 1003) || (code >= 1007 && code <= 1014) || (code >= 3000 && code <= 4999)

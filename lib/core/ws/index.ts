/**
 * The public API of the pure WebSocket core (RFC 6455): frames, masking, message assembly,
 * close payloads, the opening handshake, extensions (permessage-deflate) and the event envelope.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
export { acceptKey, WEBSOCKET_GUID } from './accept-key.js'
export {
  type AssemblyLimits,
  type AssemblyState,
  type AssemblyStep,
  assembleMessage,
  type Binary,
  type BinaryInProgress,
  type Close,
  type Compressed,
  type CompressedInProgress,
  compressedBound,
  type Idle,
  type Incoming,
  initialAssembly,
  type Ping,
  type Pong,
  type Text,
  type TextInProgress,
} from './assemble-message.js'
export { encodeBase64 } from './base64.js'
export { continuePartialText, type PartialText, startPartialText } from './check-partial-text.js'
export { CLOSE_CODE, isValidCloseCode } from './close-code.js'
export { buildClosePayload, type CloseInfo, type ClosePayloadError, parseClosePayload } from './close-payload.js'
export { appClose, type AppClose, type AppCloseError, describeAppCloseError, MAX_CLOSE_REASON, refusalClose, wantsRefusalClose } from './app-close.js'
export { decodeFrame } from './decode-frame.js'
export { encodeFrame, encodeFrameBytes } from './encode-frame.js'
export * from './extensions/index.js'
export { BATCH_SEPARATOR, decodeEnvelope, decodeEnvelopes, encodeAck, encodeErrorEvent, encodeEvent, EventEnvelope, type WireEvent } from './envelope.js'
export type { EventError, EventErrorCode, EventId, EventMessage } from './event.js'
export { type Frame, type FrameLimits, isControlOpcode, MAX_CONTROL_PAYLOAD, OPCODE, type Opcode, type OutFrame } from './frame.js'
export * from './handshake-error.js'
export { handshakeResponse } from './handshake-response.js'
export { createMasker, JS_MASKER, type Masker, maskBytes, type MaskerOptions } from './mask.js'
export { binaryFrame, closeFrame, pingFrame, pongFrame, textFrame } from './out-frame.js'
export { sha1 } from './sha1.js'
export { isWebSocketUpgrade, type Upgrade, type UpgradeOptions, validateUpgrade } from './validate-upgrade.js'
export * from './ws-error.js'
export { CLOSE_RECONNECTING, HEARTBEAT_EVENT, HEARTBEAT_MESSAGE, numberEnvelope, readSessionQuery, type ResyncReason, SESSION_EVENT, type SessionRequest, sessionMessage } from './session-wire.js'

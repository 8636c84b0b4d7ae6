/**
 * `frameText`: the text a server text frame carries, read from its payload without parsing
 * anything else (a frame from another node is an envelope this node must number for its
 * clients with a session). Must not import `node:*`, Buffer or process.
 */
import { FIN_TEXT, payloadOffset } from '../../core/ws/frame-header.js'

const utf8 = new TextDecoder()

/**
 * The payload of one unmasked server text frame as text; `undefined` for any other frame.
 *
 * @example
 * frameText(new Uint8Array([0x81, 0x02, 0x68, 0x69])) // 'hi'
 */
export const frameText = (frame: Uint8Array): string | undefined => {
  // RFC 6455 §5.2: FIN + opcode 0x1, then the payload after a 2-, 4- or 10-byte header.
  if (frame.length < 2 || frame[0] !== FIN_TEXT) return undefined
  const at = payloadOffset(frame)
  return frame.length < at ? undefined : utf8.decode(frame.subarray(at))
}

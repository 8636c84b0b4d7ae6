/**
 * `compressFrame`: a frame the server wrote, as the frame of the same message compressed
 * (permessage-deflate, RFC 7692 §6): the payload through the compressor, RSV1 set.
 * Must not import `node:*`, Buffer or process.
 */
import { encodeFrameBytes } from '../../core/ws/encode-frame.js'
import type { MessageCompressor } from '../../core/ws/extensions/message-codec.js'
import { frameOpcode } from '../../core/ws/frame-header.js'

/**
 * `frame` is a whole, unmasked text or binary frame whose payload starts at `payloadAt`.
 * RFC 7692 §6: "the first frame of the message [has] the RSV1 bit set"; the server sends
 * every message in one frame, so that frame is the message.
 *
 * @example
 * await compressFrame(compressor, Uint8Array.of(0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f), 2)
 * // c1 07 f2 48 cd c9 c9 07 00 (RFC 7692 §7.2.3.1)
 */
export const compressFrame = async (compressor: MessageCompressor, frame: Uint8Array, payloadAt: number): Promise<Uint8Array> => {
  const payload = await compressor.compress(frame.subarray(payloadAt))
  return encodeFrameBytes({ opcode: frameOpcode(frame), rsv1: true, payload })
}

/**
 * Where the payload of a frame the server wrote starts: the frames the engine hands to
 * delivery are whole, unmasked and already encoded, and compression needs their payload
 * and opcode back without decoding them again.
 * Must not import `node:*`, Buffer or process.
 */

/**
 * The length of the header of an unmasked frame, from its second byte (RFC 6455 §5.2:
 * "Payload length: 7 bits, 7+16 bits, or 7+64 bits"; 126 announces a 16-bit length, 127 a
 * 64-bit one, and the server sets no mask).
 *
 * @example
 * payloadOffset(Uint8Array.of(0x81, 0x05, 0x48, 0x65, 0x6c, 0x6c, 0x6f)) // 2
 * payloadOffset(Uint8Array.of(0x82, 0x7e, 0x01, 0x00)) // 4: a 256-byte payload follows
 */
export const payloadOffset = (frame: Uint8Array): number => {
  const length = frame[1]! & 0x7f
  return length < 126 ? 2 : length === 126 ? 4 : 10
}

/**
 * `frameText`: the text a server text frame carries, read from its payload without parsing
 * anything else (a frame from another node is an envelope this node must number for its
 * clients with a session). Must not import `node:*`, Buffer or process.
 */

const utf8 = new TextDecoder()

/**
 * The payload of one unmasked server text frame as text; `undefined` for any other frame.
 *
 * @example
 * frameText(new Uint8Array([0x81, 0x02, 0x68, 0x69])) // 'hi'
 */
export const frameText = (frame: Uint8Array): string | undefined => {
  // RFC 6455 §5.2: FIN + opcode 0x1; a 7-bit length, or 126 + 16 bits, or 127 + 64 bits.
  if (frame[0] !== 0x81 || frame.length < 2) return undefined
  const short = (frame[1] as number) & 0x7f
  const header = short < 126 ? 2 : short === 126 ? 4 : 10
  return frame.length < header ? undefined : utf8.decode(frame.subarray(header))
}

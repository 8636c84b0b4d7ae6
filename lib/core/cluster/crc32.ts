/**
 * CRC-32 (the IEEE 802.3 polynomial, reflected, as in zlib, PNG and gzip): the checksum of
 * the messages between cluster nodes. It detects every error burst up to 32 bits long, so
 * any one corrupted byte of a message (or any run of four) is always caught.
 * Pure and portable: no node:* imports, no Buffer.
 */

// One entry per byte value: the register after shifting that byte through, polynomial 0xEDB88320.
const TABLE = (() => {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
})()

/**
 * The CRC-32 of `bytes[start..end)`, as an unsigned 32-bit number.
 *
 * @example
 * crc32(new TextEncoder().encode('123456789')) // 0xcbf43926 (the check value of the standard)
 */
export const crc32 = (bytes: Uint8Array, start = 0, end = bytes.length): number => {
  let c = -1
  for (let i = start; i < end; i++) c = (TABLE[(c ^ (bytes[i] as number)) & 0xff] as number) ^ (c >>> 8)
  return (c ^ -1) >>> 0
}

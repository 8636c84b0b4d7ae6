/**
 * The four bytes a sync flush ends with, which permessage-deflate leaves off the wire
 * (RFC 7692 §7.2.1) and puts back before inflating (§7.2.2).
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/**
 * `00 00 ff ff`: the end of an empty stored block (BTYPE 00, LEN 0, NLEN 0xffff), which is
 * what a DEFLATE sync flush emits last.
 */
export const DEFLATE_TAIL: Uint8Array = Uint8Array.of(0x00, 0x00, 0xff, 0xff)

// RFC 7692 §7.2.3.6: an empty message may be sent as the single byte 0x00 (an empty stored
// block whose header bits are the only thing left once the tail is removed).
const EMPTY_BLOCK = Uint8Array.of(0x00)

/**
 * The payload to send for the output of a compressor's sync flush, per RFC 7692 §7.2.1:
 * "Remove 4 octets (that are 0x00 0x00 0xff 0xff) from the tail end." A view, not a copy.
 * Output without the tail is output of nothing (a flush with no new input emits no
 * bytes): the payload is then the one byte `00`, which inflates to the empty message.
 *
 * @example
 * stripDeflateTail(Uint8Array.of(0xf2, 0x48, 0xcd, 0xc9, 0xc9, 0x07, 0x00, 0x00, 0x00, 0xff, 0xff))
 * // f2 48 cd c9 c9 07 00 ("Hello", RFC 7692 §7.2.3.1)
 */
export const stripDeflateTail = (flushed: Uint8Array): Uint8Array => {
  const n = flushed.length
  if (n >= 4 && flushed[n - 4] === 0x00 && flushed[n - 3] === 0x00 && flushed[n - 2] === 0xff && flushed[n - 1] === 0xff) {
    return n === 4 ? EMPTY_BLOCK : flushed.subarray(0, n - 4)
  }
  return n === 0 ? EMPTY_BLOCK : flushed
}

/**
 * SHA-1 (RFC 3174 / FIPS 180-4), only for `Sec-WebSocket-Accept` (RFC 6455 §4.2.2), where
 * the protocol requires it; handshakes are rare next to frames, so a small portable version
 * is enough. Not for anything that needs a secure hash.
 *
 * Pure and portable: no node:* imports, no Buffer, no WebCrypto (which is async).
 */

const rotl = (x: number, n: number): number => (x << n) | (x >>> (32 - n))

/**
 * The 20-byte SHA-1 digest of the bytes.
 *
 * @example
 * sha1(new TextEncoder().encode('abc')) // a9 99 3e 36 47 06 81 6a ba 3e 25 71 78 50 c2 6c 9c d0 d8 9d
 */
export const sha1 = (message: Uint8Array): Uint8Array => {
  // §4 padding: 0x80, zeros, then the length in bits as a 64-bit big-endian number.
  const length = message.length
  const padded = new Uint8Array(((length + 8) >>> 6) * 64 + 64)
  padded.set(message)
  padded[length] = 0x80
  const view = new DataView(padded.buffer)
  view.setUint32(padded.length - 8, Math.floor(length / 0x2000_0000))
  view.setUint32(padded.length - 4, (length << 3) >>> 0)

  let h0 = 0x67452301
  let h1 = 0xefcdab89 | 0
  let h2 = 0x98badcfe | 0
  let h3 = 0x10325476
  let h4 = 0xc3d2e1f0 | 0
  const w = new Int32Array(80)
  for (let block = 0; block < padded.length; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getInt32(block + i * 4)
    for (let i = 16; i < 80; i++) w[i] = rotl(w[i - 3]! ^ w[i - 8]! ^ w[i - 14]! ^ w[i - 16]!, 1)
    let a = h0
    let b = h1
    let c = h2
    let d = h3
    let e = h4
    for (let i = 0; i < 80; i++) {
      // §5.1: the round function and constant change every 20 rounds.
      const f = i < 20 ? (b & c) | (~b & d) : i < 40 || i >= 60 ? b ^ c ^ d : (b & c) | (b & d) | (c & d)
      const k = i < 20 ? 0x5a827999 : i < 40 ? 0x6ed9eba1 : i < 60 ? 0x8f1bbcdc : 0xca62c1d6
      const t = (rotl(a, 5) + f + e + k + w[i]!) | 0
      e = d
      d = c
      c = rotl(b, 30)
      b = a
      a = t
    }
    h0 = (h0 + a) | 0
    h1 = (h1 + b) | 0
    h2 = (h2 + c) | 0
    h3 = (h3 + d) | 0
    h4 = (h4 + e) | 0
  }
  const digest = new Uint8Array(20)
  const out = new DataView(digest.buffer)
  ;[h0, h1, h2, h3, h4].forEach((h, i) => out.setInt32(i * 4, h))
  return digest
}

/**
 * Joins byte arrays into one, in order: what adapters do with writes held by a cork, so a
 * batch of frames leaves in one write. A single part is returned as it is (no copy).
 * Pure and portable: no node:* imports, no Buffer.
 */
export const joinBytes = (parts: readonly Uint8Array[], total: number, allocate: (size: number) => Uint8Array = (n) => new Uint8Array(n)): Uint8Array => {
  if (parts.length === 1) return parts[0] as Uint8Array
  const joined = allocate(total)
  let at = 0
  for (const part of parts) {
    joined.set(part, at)
    at += part.length
  }
  return joined
}

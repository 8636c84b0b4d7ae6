/**
 * Writes held by a cork, as the adapters that cork by themselves keep them (Bun's and the
 * native transport's): one array (most often the only one) or several, with the bytes they
 * hold counted in the connection's `pending`, and the three yes-or-no facts of such a
 * connection as bits of one number. One definition for both, so a fix to what a cork holds
 * reaches both.
 *
 * Imports nothing; no node:* (it runs wherever the adapters run).
 */

/** The connection's writes are held until its uncork (bit of a connection's `flags`). */
export const CORKING = 1
/** This side ended the connection: nothing more is written (bit of `flags`). */
export const ENDED = 2
/** The connection is gone (bit of `flags`). */
export const CLOSED = 4

/** What a cork holds: nothing, one array, or several in order. */
export type Corked = Uint8Array | Uint8Array[] | undefined

/** A connection that corks by itself: what its cork holds, and the bytes waiting in all. */
export interface CorkHolder {
  corked: Corked
  pending: number
}

/**
 * The bytes a cork holds.
 *
 * @example
 * corkedBytes([Uint8Array.of(1, 2), Uint8Array.of(3)]) // 3
 */
export const corkedBytes = (corked: Corked | readonly Uint8Array[]): number => {
  if (corked === undefined) return 0
  if (!Array.isArray(corked)) return (corked as Uint8Array).length
  let total = 0
  for (const part of corked as readonly Uint8Array[]) total += part.length
  return total
}

/**
 * Holds `bytes` behind what the connection's cork holds, and counts them as pending.
 *
 * @example
 * const conn = { corked: undefined, pending: 0 }
 * holdCorked(conn, Uint8Array.of(1, 2)) // conn.corked: 01 02, pending 2
 * holdCorked(conn, Uint8Array.of(3))    // conn.corked: [01 02, 03], pending 3
 */
export const holdCorked = (conn: CorkHolder, bytes: Uint8Array): void => {
  const corked = conn.corked
  if (corked === undefined) conn.corked = bytes
  else if (Array.isArray(corked)) corked.push(bytes)
  else conn.corked = [corked as Uint8Array, bytes]
  conn.pending += bytes.length
}

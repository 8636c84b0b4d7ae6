/**
 * `etagOf`: a strong entity tag (RFC 9110 §8.8.3) for a file, from its size and modification
 * time. Pure and portable: no node:* imports.
 */

/**
 * The ETag of a file of `size` bytes last modified at `mtimeMs` (milliseconds since the
 * epoch): `"<size>-<mtime>"` in hexadecimal. Strong: any change of content that changes the
 * size or the modification time changes the tag. The time is truncated to the millisecond,
 * the precision every runtime reports (Node's `mtimeMs` has a fraction, Bun's and Deno's
 * dates do not), so the same file has the same tag whichever runtime serves it.
 *
 * @example
 * etagOf(1024, 1700000000000) // '"400-18bcfe56800"'
 */
export const etagOf = (size: number, mtimeMs: number): string => {
  const time = Number.isFinite(mtimeMs) ? Math.floor(mtimeMs) : 0
  const bytes = Number.isFinite(size) && size > 0 ? Math.floor(size) : 0
  return `"${bytes.toString(16)}-${time.toString(16)}"`
}

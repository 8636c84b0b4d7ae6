/**
 * `ByteSearch`: a substring search over bytes that a runtime may lend the core's parsers (a
 * native one, `Buffer.prototype.indexOf` say). The core never imports one; where none is lent,
 * each parser uses its own portable search, so every result is the same with or without it.
 * No platform lends one today: on Node and Bun, `Buffer.indexOf` made the multipart parser no
 * faster (bench/multipart-codec.ts), and Deno's is JavaScript (bench/RESULTS.md "Session 13:
 * uploads").
 *
 * A type only. Pure and portable: no node:* imports, no Buffer.
 */

/**
 * The offset of the first whole `needle` in `hay` at or after `from`, or -1 (also when `from`
 * is past the end): `Buffer.prototype.indexOf(needle, from)`'s answer for a non-empty needle.
 *
 * @example
 * const search: ByteSearch = (hay, needle, from) => Buffer.prototype.indexOf.call(hay, needle, from)
 */
export type ByteSearch = (hay: Uint8Array, needle: Uint8Array, from: number) => number

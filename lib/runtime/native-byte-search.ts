/**
 * `nativeByteSearch`: the core's `ByteSearch` as `Buffer.prototype.indexOf`, which takes any
 * `Uint8Array` as the haystack (no copy, no wrapping). Lent to streamed request bodies by Bun's
 * platform, where it finds a multipart delimiter in about half the CPU time of the core's
 * portable skip-table search; on Node the two cost the same and on Deno (a JavaScript
 * `Buffer.indexOf`) it is far slower, so their platforms lend none (bench/RESULTS.md
 * "Session 13: uploads").
 * Part of the shared runtime layer (lib/runtime/): imports the core's types and `node:buffer`,
 * never an adapter.
 */
import { Buffer } from 'node:buffer'
import type { ByteSearch } from '../core/byte-search.js'

const indexOf = Buffer.prototype.indexOf

/**
 * The first whole `needle` in `hay` at or after `from`, or -1.
 *
 * @example
 * nativeByteSearch(new TextEncoder().encode('ab\r\n--b'), new TextEncoder().encode('\r\n--b'), 0) // 2
 */
export const nativeByteSearch: ByteSearch = (hay, needle, from) => indexOf.call(hay, needle, from)

/**
 * `internAscii`: the string of a short run of ASCII bytes, taken from a small table of the
 * strings made last when the same bytes were seen before. The request heads of one
 * application repeat the same few field names, targets and values (`Host`, the Accept
 * lines, `/api/...`), so most of them cost a comparison instead of a decode and a new
 * string. The tables are bounded (a fixed number of slots, strings up to 512 bytes); a set
 * of two slots is found from a few sampled bytes and the length, and always checked byte
 * for byte (a word at a time), so a collision only costs a decode. The answer is the same
 * string either way. The tables belong to a server (`createInternTables`), passed in.
 *
 * Pure and portable: no node:* imports.
 */
import { asciiText } from './latin1.js'
import { type WordViews, wordsFor } from './word-view.js'

/** One table of strings and their bytes: `slots` (a power of two) of up to `longest` bytes. */
export interface InternTable {
  readonly strings: string[]
  // The bytes of each slot's string, `longest` per slot: comparing bytes with bytes (four at
  // a time) is cheaper than with the string's char codes.
  readonly kept: Uint8Array
  readonly keptWords: DataView
  readonly mask: number
  readonly longest: number
}

const tableOf = (slots: number, longest: number): InternTable => {
  const kept = new Uint8Array(slots * longest)
  return { strings: new Array<string>(slots).fill(''), kept, keptWords: new DataView(kept.buffer), mask: slots - 1, longest }
}

/** A server's interning tables, and the word views they compare with. */
export interface InternTables {
  readonly short: InternTable
  readonly long: InternTable
  readonly words: WordViews
}

// Short runs (names, most values and targets) in many slots; longer ones (a User-Agent, a
// Cookie, a long target) in a few: a browser's head repeats them request after request.
/**
 * Empty tables, comparing through `words` (the server's one record of views).
 *
 * @example
 * const tables = createInternTables(createWordViews())
 */
export const createInternTables = (words: WordViews): InternTables => ({ short: tableOf(1024, 96), long: tableOf(64, 512), words })

// Whether slot `slot` of `table` holds the `n` bytes at `bytes[start..]`.
const holds = (views: WordViews, table: InternTable, slot: number, bytes: Uint8Array, start: number, n: number): boolean => {
  if ((table.strings[slot] as string).length !== n) return false
  const at = slot * table.longest
  let i = 0
  // A word at a time where a view pays (a long run, or one made already for this chunk).
  const words = wordsFor(views, bytes, n)
  if (words !== undefined) {
    const keptWords = table.keptWords
    while (i + 4 <= n && keptWords.getInt32(at + i, true) === words.getInt32(start + i, true)) i += 4
  }
  const kept = table.kept
  while (i < n && kept[at + i] === bytes[start + i]) i++
  return i === n
}

/**
 * The string of `bytes[start..end)`, every byte below 0x80 (the caller checked them), from
 * (and kept in) `tables`.
 *
 * @example
 * internAscii(tables, new Uint8Array([0x48, 0x6f, 0x73, 0x74]), 0, 4) // 'Host' (the same string next time)
 */
export const internAscii = (tables: InternTables, bytes: Uint8Array, start: number, end: number): string => {
  const n = end - start
  if (n <= 0) return ''
  const short = tables.short
  const long = tables.long
  const table = n <= short.longest ? short : n <= long.longest ? long : undefined
  if (table === undefined) return asciiText(bytes, start, end)
  // The length and five sampled bytes (first, last, a quarter, half and three quarters of
  // the way), mixed. Names of one family differ near their end (Sec-Fetch-Site, -Mode).
  let h = Math.imul(n ^ ((bytes[start] as number) << 8) ^ ((bytes[end - 1] as number) << 16) ^ ((bytes[start + ((3 * n) >> 2)] as number) << 24), 0x9e3779b1)
  h = Math.imul(h ^ (bytes[start + (n >> 1)] as number) ^ ((bytes[start + (n >> 2)] as number) << 8), 0x85ebca6b)
  // Two slots per set: two strings that meet in one set both stay (the newer first).
  const slot = (h ^ (h >>> 15)) & table.mask & ~1
  const views = tables.words
  if (holds(views, table, slot, bytes, start, n)) return table.strings[slot] as string
  if (holds(views, table, slot + 1, bytes, start, n)) return table.strings[slot + 1] as string
  const at = slot * table.longest
  const strings = table.strings
  const older = strings[slot] as string
  strings[slot + 1] = older
  table.kept.copyWithin(at + table.longest, at, at + older.length)
  const run = bytes.subarray(start, end)
  // One native call makes a flat string (a string built by concatenation is a rope).
  const made = String.fromCharCode.apply(null, run as unknown as number[])
  strings[slot] = made
  table.kept.set(run, at)
  return made
}

/**
 * `internAscii`: the string of a short run of ASCII bytes, taken from a small table of the
 * strings made last when the same bytes were seen before. The request heads of one
 * application repeat the same few field names, targets and values (`Host`, the Accept
 * lines, `/api/...`), so most of them cost a comparison instead of a decode and a new
 * string. The table is bounded (a fixed number of slots, short strings only); a slot is
 * found from a few sampled bytes and the length, and always checked byte for byte, so a
 * collision only costs a decode. The answer is the same string either way.
 *
 * Pure and portable: no node:* imports.
 */
import { asciiText } from './latin1.js'

// Slots in the table (a power of two) and the longest string kept in one.
const SLOTS = 1024
const LONGEST = 96

const table: string[] = new Array<string>(SLOTS).fill('')
// The bytes of each slot's string, `LONGEST` per slot: comparing bytes with bytes is cheaper
// than with the string's char codes.
const kept = new Uint8Array(SLOTS * LONGEST)

/**
 * The string of `bytes[start..end)`, every byte below 0x80 (the caller checked them).
 *
 * @example
 * internAscii(new Uint8Array([0x48, 0x6f, 0x73, 0x74]), 0, 4) // 'Host' (the same string next time)
 */
export const internAscii = (bytes: Uint8Array, start: number, end: number): string => {
  const n = end - start
  if (n <= 0) return ''
  if (n > LONGEST) return asciiText(bytes, start, end)
  // The length and four sampled bytes (first, last, a quarter and half way), mixed.
  let h = Math.imul(n ^ ((bytes[start] as number) << 8) ^ ((bytes[end - 1] as number) << 16), 0x9e3779b1)
  h = Math.imul(h ^ (bytes[start + (n >> 1)] as number) ^ ((bytes[start + (n >> 2)] as number) << 8), 0x85ebca6b)
  const slot = (h ^ (h >>> 15)) & (SLOTS - 1)
  const known = table[slot] as string
  if (known.length === n) {
    const base = slot * LONGEST
    let i = 0
    while (i < n && kept[base + i] === bytes[start + i]) i++
    if (i === n) return known
  }
  const run = bytes.subarray(start, end)
  // One native call makes a flat string (a string built by concatenation is a rope).
  const made = String.fromCharCode.apply(null, run as unknown as number[])
  table[slot] = made
  kept.set(run, slot * LONGEST)
  return made
}

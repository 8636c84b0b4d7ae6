/**
 * `selectRanges`: what a GET with a Range field gets (RFC 9110 §14): the whole
 * representation (200), one range (206 with Content-Range), several (206
 * multipart/byteranges, see `multipartByteranges`), or 416 when no range is satisfiable.
 * If-Range (RFC 9110 §13.1.5) is evaluated here, after `evaluatePreconditions`.
 *
 * Pure and portable: no node:* imports.
 */
import type { Header } from '../types.js'
import { type ByteRange, contentRangeOf } from './byte-range.js'
import { fieldLines } from './field-lines.js'
import { ifRangeHolds } from './if-range-holds.js'
import { parseRange, type RangeSpec } from './parse-range.js'
import type { Validators } from './validators.js'

/** What to send: the whole body, one range, several ranges, or 416. */
export type RangeSelection =
  | { readonly _tag: 'Whole'; readonly status: 200 }
  | { readonly _tag: 'Single'; readonly status: 206; readonly range: ByteRange; readonly contentRange: string }
  | { readonly _tag: 'Multiple'; readonly status: 206; readonly ranges: readonly ByteRange[] }
  | { readonly _tag: 'Unsatisfiable'; readonly status: 416; readonly contentRange: string }

/** Limits on what a Range may ask (RFC 9110 §17.15, denial of service through ranges). */
export interface RangeOptions {
  /** More range-specs than this and the Range is ignored (200). Default 16. */
  readonly maxRanges?: number
  /** Ranges closer than this many bytes (or overlapping) are merged into one. Default 80, about a part's head. */
  readonly coalesceGap?: number
}

/** The defaults of `RangeOptions`. */
export const DEFAULT_RANGE_OPTIONS: Required<RangeOptions> = Object.freeze({ maxRanges: 16, coalesceGap: 80 })

const WHOLE = Object.freeze({ _tag: 'Whole', status: 200 } as const)

// RFC 9110 §14.1.1: an int-range is satisfiable when first-pos < size (last-pos is clipped);
// a suffix-range when its length > 0 (the last `length` bytes, all of them if fewer).
const satisfy = (spec: RangeSpec, size: number): ByteRange | undefined => {
  if (spec._tag === 'SuffixRange') return spec.length > 0 ? { first: Math.max(0, size - spec.length), last: size - 1 } : undefined
  return spec.first < size ? { first: spec.first, last: Math.min(spec.last ?? size - 1, size - 1) } : undefined
}

// RFC 9110 §14.2: "a server MAY coalesce any of the ranges that overlap, or that are
// separated by a gap that is smaller than the overhead of sending multiple parts,
// regardless of the order in which the corresponding range-spec appeared". Ranges that need
// none of this keep the order they were asked in.
const coalesce = (ranges: readonly ByteRange[], gap: number): readonly ByteRange[] => {
  const sorted = [...ranges].sort((a, b) => a.first - b.first)
  const near = sorted.some((r, i) => i > 0 && r.first - (sorted[i - 1] as ByteRange).last - 1 < gap)
  if (!near) return ranges
  const merged: ByteRange[] = []
  for (const r of sorted) {
    const top = merged[merged.length - 1]
    if (top !== undefined && r.first - top.last - 1 < gap) merged[merged.length - 1] = { first: top.first, last: Math.max(top.last, r.last) }
    else merged.push(r)
  }
  return merged
}

/**
 * Decides the answer to a request's Range for a representation of `size` bytes:
 *
 * - `Whole` (200) when the method is not GET (GET is the only method with range handling,
 *   RFC 9110 §14.2), there is no Range or more than one Range line, If-Range does not hold,
 *   the Range does not parse or is not in bytes, it has more than `maxRanges` specs, or the
 *   representation is empty;
 * - `Unsatisfiable` (416, `Content-Range: bytes *\/size`) when no range-spec is satisfiable;
 * - otherwise the satisfiable ranges, overlapping or nearly adjacent ones merged: `Single`
 *   (206 with its Content-Range) or `Multiple` (206 multipart/byteranges).
 *
 * @example
 * selectRanges('GET', [['Range', 'bytes=0-99']], 1000, {})
 * // { _tag: 'Single', status: 206, range: { first: 0, last: 99 }, contentRange: 'bytes 0-99/1000' }
 * selectRanges('GET', [['Range', 'bytes=2000-']], 1000, {}) // { _tag: 'Unsatisfiable', status: 416, contentRange: 'bytes *\/1000' }
 * selectRanges('GET', [['Range', 'bytes=0-0,0-0']], 1000, {}) // Single 0-0: overlaps are merged
 */
export const selectRanges = (
  method: string,
  headers: readonly Header[],
  size: number,
  validators: Validators,
  options: RangeOptions = DEFAULT_RANGE_OPTIONS,
  nowMs?: number,
): RangeSelection => {
  if (method !== 'GET' || size <= 0) return WHOLE
  const lines = fieldLines(headers, 'range')
  if (lines.length !== 1) return WHOLE
  const ifRange = fieldLines(headers, 'if-range')
  if (ifRange.length > 1 || (ifRange.length === 1 && !ifRangeHolds(ifRange[0] as string, validators, nowMs))) return WHOLE
  const request = parseRange(lines[0] as string)
  if (request === undefined || request.unit !== 'bytes') return WHOLE
  if (request.specs.length > (options.maxRanges ?? DEFAULT_RANGE_OPTIONS.maxRanges)) return WHOLE
  const satisfiable = request.specs.map((spec) => satisfy(spec, size)).filter((r): r is ByteRange => r !== undefined)
  if (satisfiable.length === 0) return { _tag: 'Unsatisfiable', status: 416, contentRange: contentRangeOf(undefined, size) }
  const ranges = coalesce(satisfiable, options.coalesceGap ?? DEFAULT_RANGE_OPTIONS.coalesceGap)
  const only = ranges[0] as ByteRange
  return ranges.length === 1 ? { _tag: 'Single', status: 206, range: only, contentRange: contentRangeOf(only, size) } : { _tag: 'Multiple', status: 206, ranges }
}

/**
 * What every harness asserts besides "no throw": a broken contract throws `ContractBroken`
 * (the fuzzer reports it as a crash, the corpus replay as a failed test). Helpers for the
 * decoder contract (DESIGN §2): need-more asks for more than it was given, a rest is a view
 * of the tail of the input, errors carry their status or close code.
 * Node only (fuzz/ is tooling): may import node:util.
 */
import { isDeepStrictEqual } from 'node:util'

/** A contract a harness checks did not hold; the message says which. */
export class ContractBroken extends Error {
  override readonly name = 'ContractBroken'
}

/** Throws `ContractBroken` with `what` unless `ok`. */
export const expect = (ok: boolean, what: string): void => {
  if (!ok) throw new ContractBroken(what)
}

/** Throws unless `a` and `b` are deeply equal (typed arrays by content). */
export const same = (a: unknown, b: unknown, what: string): void => {
  if (!isDeepStrictEqual(a, b)) throw new ContractBroken(`${what}: ${show(a)} !== ${show(b)}`)
}

const show = (v: unknown): string => {
  try {
    return JSON.stringify(v, (_k, x: unknown) => (x instanceof Uint8Array ? `<${x.length} bytes>` : x))?.slice(0, 300) ?? String(v)
  } catch {
    return String(v)
  }
}

/** Throws unless `rest` is a view of the last `rest.length` bytes of `input` (no copy, nothing read past it). */
export const expectTail = (rest: Uint8Array, input: Uint8Array, what: string): void => {
  expect(rest.length <= input.length, `${what}: rest longer than the input`)
  expect(
    rest.length === 0 || (rest.buffer === input.buffer && rest.byteOffset + rest.length === input.byteOffset + input.length),
    `${what}: rest is not a view of the input's tail`,
  )
}

/** Throws unless a need-more asks for more bytes than it was given. */
export const expectNeedMore = (atLeast: number, given: number, what: string): void =>
  expect(Number.isInteger(atLeast) && atLeast > given, `${what}: need-more asks for ${atLeast} with ${given} given`)

/** Throws unless `error` is a tagged value with a numeric `field` in [lo, hi]. */
export const expectTagged = (error: unknown, field: 'status' | 'closeCode', lo: number, hi: number, what: string): void => {
  const e = error as { _tag?: unknown; [k: string]: unknown }
  expect(typeof e === 'object' && e !== null && typeof e._tag === 'string', `${what}: error without a _tag`)
  const v = e[field]
  expect(typeof v === 'number' && v >= lo && v <= hi, `${what}: ${String(e._tag)} has ${field} ${String(v)}`)
}

/** A split point of `data` chosen by its own bytes (deterministic per input). */
export const splitPoint = (data: Uint8Array): number =>
  data.length === 0 ? 0 : ((data[data.length - 1]! * 31 + data.length * 7) % (data.length + 1))

/** Latin-1 text of bytes (one char per byte), as a shell hands header text to the core. */
export const latin1 = (data: Uint8Array): string => {
  let s = ''
  for (let i = 0; i < data.length; i += 4096) s += String.fromCharCode(...data.subarray(i, i + 4096))
  return s
}

/** UTF-8 text of bytes, with U+FFFD for what is not UTF-8. */
export const utf8 = (data: Uint8Array): string => new TextDecoder().decode(data)

/** The fuzzer's Buffer as a plain Uint8Array view (what a shell hands the core), so deep comparisons see one prototype. */
export const plainBytes = (data: Uint8Array): Uint8Array => new Uint8Array(data.buffer, data.byteOffset, data.length)

/**
 * `pickEncoding`: content negotiation of Accept-Encoding (RFC 9110 §12.5.3): which of the
 * codings a server can send (`br`, `gzip`, `zstd`, `identity`, …) a request prefers, and
 * whether the response must carry `Vary: Accept-Encoding`. Pure and portable: no node:*
 * imports.
 *
 *   Accept-Encoding = #( codings [ weight ] )
 *   codings         = content-coding / "identity" / "*"
 *   weight          = OWS ";" OWS "q=" qvalue
 *   qvalue          = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )
 */

/** The coding to send, and what the response must say about it. */
export interface EncodingChoice {
  /** One of `available`, lower case: `identity` means no content coding. */
  readonly coding: string
  /** Whether the choice depends on Accept-Encoding (more than one coding available): send `Vary: Accept-Encoding`. */
  readonly vary: boolean
  /** False when the request refused every available coding (`identity;q=0`); `coding` is then a fallback, or answer 406. */
  readonly acceptable: boolean
}

const MEMBER = /^([!#$%&'*+\-.^_`|~0-9A-Za-z]+)(?:[ \t]*;[ \t]*[qQ]=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?))?$/

// RFC 9110 §8.4.1.3: "A recipient SHOULD consider "x-gzip" to be equivalent to "gzip"";
// §8.4.1.1 likewise for x-compress.
const canonical = (coding: string): string => {
  const lower = coding.toLowerCase()
  return lower === 'x-gzip' ? 'gzip' : lower === 'x-compress' ? 'compress' : lower
}

// Weights in thousandths, so that 0.001 and 1 compare exactly. Members that do not parse
// (another parameter, q=2, q=0.0001) are skipped; the rest of the list still counts.
const weights = (value: string): ReadonlyMap<string, number> => {
  const found = new Map<string, number>()
  for (const part of value.split(',')) {
    const m = MEMBER.exec(part.trim())
    if (m === null) continue
    const q = m[2] === undefined ? 1000 : Math.round(Number(m[2]) * 1000)
    const coding = canonical(m[1] as string)
    // A coding listed twice keeps its highest weight.
    found.set(coding, Math.max(q, found.get(coding) ?? 0))
  }
  return found
}

// In thousandths, as the table: identity not named and no `*` is acceptable, below any
// weight a request can write (0.001 is 1).
const IMPLICIT_IDENTITY = 0.5

/**
 * Picks the coding with the highest weight among `available` (the server's order breaks
 * ties, so list the preferred first: `['br', 'gzip', 'identity']`).
 *
 * - No Accept-Encoding (`undefined`): `identity`, when available: a client that says nothing
 *   may decode nothing. An empty field: only `identity` (RFC 9110 §12.5.3).
 * - A coding not listed takes the weight of `*`, if any; `q=0` refuses it.
 * - `identity` is acceptable unless refused by `identity;q=0` or by `*;q=0` without an
 *   `identity` member, and ranks below every coding the request named.
 * - When nothing available is acceptable: `acceptable: false` and `identity` (or the first
 *   available coding) as the fallback; RFC 9110 §12.5.3 lets the server send it anyway.
 *
 * @example
 * pickEncoding('gzip, deflate, br', ['br', 'gzip', 'identity']) // { coding: 'br', vary: true, acceptable: true }
 * pickEncoding('gzip;q=1, br;q=0.5', ['br', 'gzip', 'identity']) // { coding: 'gzip', vary: true, acceptable: true }
 * pickEncoding(undefined, ['br', 'gzip', 'identity']) // { coding: 'identity', vary: true, acceptable: true }
 */
export const pickEncoding = (acceptEncoding: string | undefined, available: readonly string[]): EncodingChoice => {
  const codings = available.map(canonical)
  const vary = codings.some((c) => c !== 'identity')
  const fallback = codings.includes('identity') ? 'identity' : (codings[0] ?? 'identity')
  if (acceptEncoding === undefined) return { coding: fallback, vary, acceptable: true }
  const table = weights(acceptEncoding)
  const star = table.get('*')
  let best: string | undefined
  let bestQ = 0
  for (const coding of codings) {
    const q = table.get(coding) ?? star ?? (coding === 'identity' ? IMPLICIT_IDENTITY : 0)
    if (q > bestQ) {
      best = coding
      bestQ = q
    }
  }
  return best === undefined ? { coding: fallback, vary, acceptable: false } : { coding: best, vary, acceptable: true }
}

/**
 * `normalizeHeaders`: turns the header argument of the response factories (a record, as in
 * the seed, or a list of pairs) into the `Header` list of a `Response`, taking out the
 * `Content-Type` (kept apart so exactly one is sent) and the framing headers the serialiser
 * derives itself (`Content-Length`, `Transfer-Encoding`). CR, LF and NUL in names and values
 * become spaces, so no header can smuggle another into the response (RFC 9110 §5.5).
 *
 * Pure and portable: no node:* imports.
 */
import type { Header } from './types.js'

/** Headers as the factories take them: a record (seed style) or a list of `[name, value]`. */
export type HeaderInput = Readonly<Record<string, string>> | readonly Header[]

/** The normalised headers and the `Content-Type` found among them, if any. */
export interface NormalizedHeaders {
  readonly headers: readonly Header[]
  readonly contentType: string | undefined
}

const UNSAFE = /[\r\n\0]/g

const hasUnsafe = (text: string): boolean => text.includes('\r') || text.includes('\n') || text.includes('\0')

/** Replaces CR, LF and NUL with a space: a header value can never end the header line early. */
export const sanitizeHeaderText = (text: string): string => (hasUnsafe(text) ? text.replace(UNSAFE, ' ') : text)

const clean = sanitizeHeaderText

const NONE: NormalizedHeaders = Object.freeze({ headers: Object.freeze([]), contentType: undefined })

const isEmpty = (input: HeaderInput): boolean => {
  if (Array.isArray(input)) return input.length === 0
  for (const _ in input) return false
  return true
}

/** Whether `name` is one the serialiser derives and so never takes from the application. */
export const isDerivedHeader = (lowerName: string): boolean =>
  lowerName === 'content-length' || lowerName === 'transfer-encoding'

/**
 * Normalises factory header input; later entries win over earlier ones with the same name
 * (case-insensitive), as repeated `setHeader` calls would in the seed.
 *
 * @example
 * normalizeHeaders({ 'content-type': 'text/csv', 'X-A': '1' })
 * // { headers: [['X-A', '1']], contentType: 'text/csv' }
 */
export const normalizeHeaders = (input: HeaderInput): NormalizedHeaders => {
  // The factories' default (no headers) is by far the most common: nothing to walk.
  if (isEmpty(input)) return NONE
  const pairs: readonly Header[] = Array.isArray(input) ? (input as readonly Header[]) : Object.entries(input)
  const headers: Header[] = []
  let contentType: string | undefined
  for (const [rawName, rawValue] of pairs) {
    const name = clean(String(rawName))
    const value = clean(String(rawValue))
    const lower = name.toLowerCase()
    if (lower === 'content-type') contentType = value
    else if (!isDerivedHeader(lower)) {
      const at = headers.findIndex(([n]) => n.toLowerCase() === lower)
      if (at >= 0 && !Array.isArray(input)) headers[at] = [name, value]
      else headers.push([name, value])
    }
  }
  return { headers, contentType }
}

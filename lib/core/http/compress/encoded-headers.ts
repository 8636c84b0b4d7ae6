/**
 * `encodedHeaders`: an answer's headers once it is sent compressed, or once it is marked as
 * varying with Accept-Encoding. `Content-Encoding` is added; `Vary` names Accept-Encoding
 * (added to the field the handler set, unless it is `*` or names it); a strong `ETag` becomes
 * weak, since the compressed bytes are not the identity bytes it validated (RFC 9110 §8.8.1,
 * as nginx does), and a weak one still matches `If-None-Match`; `Accept-Ranges` goes, since
 * ranges would be of the compressed bytes, which are not stable.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
import type { Header } from '../types.js'

const namesAcceptEncoding = (vary: string): boolean => vary.split(',').some((v) => {
  const name = v.trim().toLowerCase()
  return name === '*' || name === 'accept-encoding'
})

/**
 * `coding`: the Content-Encoding to add, or `undefined` to add only the Vary.
 *
 * @example
 * encodedHeaders([['ETag', '"5-a"'], ['Accept-Ranges', 'bytes']], 'gzip')
 * // [['ETag', 'W/"5-a"'], ['Content-Encoding', 'gzip'], ['Vary', 'Accept-Encoding']]
 */
export const encodedHeaders = (headers: readonly Header[], coding: string | undefined): readonly Header[] => {
  const out: Header[] = []
  let varied = false
  for (const header of headers) {
    const lower = header[0].toLowerCase()
    if (lower === 'vary') {
      if (namesAcceptEncoding(header[1])) {
        varied = true
        out.push(header)
      } else if (!varied) {
        varied = true
        out.push([header[0], `${header[1]}, Accept-Encoding`])
      } else out.push(header)
    } else if (coding === undefined) out.push(header)
    else if (lower === 'etag') out.push(header[1].startsWith('W/') ? header : [header[0], `W/${header[1]}`])
    else if (lower !== 'accept-ranges') out.push(header)
  }
  if (coding !== undefined) out.push(['Content-Encoding', coding])
  if (!varied) out.push(['Vary', 'Accept-Encoding'])
  return out
}

/**
 * The headers of a 304 answering a request that holds a compressed copy: a 304 carries the
 * ETag and Vary a 200 would have (RFC 9110 §15.4.5), so when `If-None-Match` names the weak
 * form of the answer's strong ETag (the tag given with the compressed 200), the ETag is sent
 * weak and `Vary: Accept-Encoding` added; otherwise `undefined` (the 304 is left alone).
 *
 * @example
 * notModifiedHeaders([['ETag', '"5-a"']], 'W/"5-a"') // [['ETag', 'W/"5-a"'], ['Vary', 'Accept-Encoding']]
 * notModifiedHeaders([['ETag', '"5-a"']], '"5-a"')   // undefined
 */
export const notModifiedHeaders = (headers: readonly Header[], ifNoneMatch: string | undefined): readonly Header[] | undefined => {
  if (ifNoneMatch === undefined) return undefined
  for (const header of headers) {
    if (header[0].toLowerCase() !== 'etag') continue
    const tag = header[1]
    if (tag.startsWith('W/') || !ifNoneMatch.includes(`W/${tag}`)) return undefined
    const weakened = headers.map((h): Header => (h === header ? [h[0], `W/${tag}`] : h))
    return encodedHeaders(weakened, undefined)
  }
  return undefined
}

/**
 * The head of an HTTP/1.1 response as the streaming bench's clients need it: where it ends,
 * the status and how the body is framed (RFC 9112 §6.3: chunked, a Content-Length, or until
 * the connection closes). Pure; imports nothing.
 */

/** A parsed response head. */
export interface ResponseHead {
  readonly status: number
  /** Bytes of the head, through its empty line. */
  readonly headBytes: number
  readonly framing: { readonly kind: 'chunked' } | { readonly kind: 'length'; readonly length: number } | { readonly kind: 'close' }
  readonly headers: ReadonlyMap<string, string>
}

/**
 * The head at the start of `bytes[0..end)`; `undefined` while its empty line has not come,
 * `'invalid'` when it is not a response head.
 *
 * @example
 * parseResponseHead(new TextEncoder().encode('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi'), 40)
 * // { status: 200, headBytes: 38, framing: { kind: 'length', length: 2 }, … }
 */
export const parseResponseHead = (bytes: Uint8Array, end: number): ResponseHead | 'invalid' | undefined => {
  let stop = -1
  for (let i = 3; i < end; i++) {
    if (bytes[i] === 0x0a && bytes[i - 1] === 0x0d && bytes[i - 2] === 0x0a && bytes[i - 3] === 0x0d) {
      stop = i + 1
      break
    }
  }
  if (stop < 0) return end > 65536 ? 'invalid' : undefined
  const lines = new TextDecoder('latin1').decode(bytes.subarray(0, stop - 4)).split('\r\n')
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? '')?.[1]
  if (status === undefined) return 'invalid'
  const headers = new Map<string, string>()
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim())
  }
  const te = headers.get('transfer-encoding')
  const cl = headers.get('content-length')
  const framing =
    te !== undefined && /chunked\s*$/i.test(te)
      ? ({ kind: 'chunked' } as const)
      : cl !== undefined && /^\d+$/.test(cl)
        ? ({ kind: 'length', length: Number(cl) } as const)
        : ({ kind: 'close' } as const)
  return { status: Number(status), headBytes: stop, framing, headers }
}

/**
 * The `multipart/form-data` bodies the streaming bench uploads (RFC 7578): one text field and
 * one file part of any size, the file's bytes a fixed pattern repeated, so a client streams
 * them from a generator without ever holding the file, and the expected sha256 is computed
 * once per size. Pure but for node:crypto's hash.
 */
import { createHash } from 'node:crypto'

/** What goes around the file's bytes, and the whole body's length. */
export interface MultipartFrame {
  readonly contentType: string
  /** The field part, then the file part's delimiter and headers. */
  readonly head: Uint8Array
  /** CRLF, the close delimiter and a final CRLF. */
  readonly tail: Uint8Array
  /** head + file size + tail. */
  readonly length: number
}

/**
 * The frame of a body with field `field` = `value` and a file part `file` named `filename` of
 * `size` bytes.
 *
 * @example
 * const f = multipartFrame('b0undary', { field: 'client', value: '7' }, { field: 'file', filename: 'f.bin', size: 3 })
 * f.contentType // 'multipart/form-data; boundary=b0undary'
 */
export const multipartFrame = (
  boundary: string,
  text: { readonly field: string; readonly value: string },
  file: { readonly field: string; readonly filename: string; readonly size: number },
): MultipartFrame => {
  const encoder = new TextEncoder()
  const head = encoder.encode(
    `--${boundary}\r\ncontent-disposition: form-data; name="${text.field}"\r\n\r\n${text.value}\r\n` +
      `--${boundary}\r\ncontent-disposition: form-data; name="${file.field}"; filename="${file.filename}"\r\n` +
      `content-type: application/octet-stream\r\n\r\n`,
  )
  const tail = encoder.encode(`\r\n--${boundary}--\r\n`)
  return { contentType: `multipart/form-data; boundary=${boundary}`, head, tail, length: head.length + file.size + tail.length }
}

/**
 * `size` bytes of `pattern` repeated, as views of it (the last one cut short).
 *
 * @example [...patternChunks(new Uint8Array(4), 10)].map((c) => c.length) // [4, 4, 2]
 */
export function* patternChunks(pattern: Uint8Array, size: number): Generator<Uint8Array> {
  for (let left = size; left > 0; left -= pattern.length) yield left >= pattern.length ? pattern : pattern.subarray(0, left)
}

/** The sha256 (hex) of `size` bytes of `pattern` repeated. */
export const patternSha256 = (pattern: Uint8Array, size: number): string => {
  const hash = createHash('sha256')
  for (const chunk of patternChunks(pattern, size)) hash.update(chunk)
  return hash.digest('hex')
}

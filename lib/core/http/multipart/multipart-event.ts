/**
 * What the multipart decoder reports, in body order: for each part a `PartStart` with its
 * head, any number of `PartData` (views of the chunks fed in, or of the few bytes carried
 * across two chunks), a `PartEnd`; then one `End` at the close delimiter.
 *
 * Pure and portable: no node:* imports.
 */
import type { Header } from '../types.js'

/** A part's headers, read (RFC 7578 §4.2, §4.4). */
export interface PartHead {
  /** The `name` parameter of `Content-Disposition: form-data`. */
  readonly name: string
  /** `filename*` (decoded) or else `filename`, as sent (no path stripped); `undefined` for a non-file part. */
  readonly filename: string | undefined
  /** The part's `Content-Type` value as sent, `text/plain` when it has none. */
  readonly contentType: string
  /** Every header line of the part, in order, names as received. */
  readonly headers: readonly Header[]
}

/** A part begins; its data follows. */
export interface PartStart {
  readonly _tag: 'PartStart'
  readonly part: PartHead
}
/** Some of the current part's data. */
export interface PartData {
  readonly _tag: 'PartData'
  readonly data: Uint8Array
}
/** The current part is over. */
export interface PartEnd {
  readonly _tag: 'PartEnd'
}
/** The close delimiter: the body is complete, anything after it is epilogue. */
export interface MultipartEnd {
  readonly _tag: 'End'
}

/** One thing the decoder read. */
export type MultipartEvent = PartStart | PartData | PartEnd | MultipartEnd

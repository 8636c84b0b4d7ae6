/**
 * The pure decisions of static files and HTTP compression (issue 30): content types, ETag and
 * Last-Modified, conditional requests, ranges, safe paths, Accept-Encoding. The adapters'
 * file reading is built on these. Pure and portable: no node:* imports.
 */
export { contentTypeOf } from './content-type-of.js'
export { isCompressible } from './is-compressible.js'
export { etagOf } from './etag-of.js'
export { lastModifiedOf } from './last-modified-of.js'
export { parseHttpDate } from './parse-http-date.js'
export { type EntityTag, type EntityTagList, entityTagsMatch, parseEntityTags } from './entity-tags.js'
export type { Validators } from './validators.js'
export { evaluatePreconditions, type PreconditionOutcome } from './evaluate-preconditions.js'
export { type ByteRange, contentRangeOf } from './byte-range.js'
export { parseRange, type RangeRequest, type RangeSpec } from './parse-range.js'
export { ifRangeHolds } from './if-range-holds.js'
export { DEFAULT_RANGE_OPTIONS, type RangeOptions, type RangeSelection, selectRanges } from './select-ranges.js'
export { type BytesPart, type MultipartByteranges, multipartByteranges } from './multipart-byteranges.js'
export { resolveStaticPath, type StaticPath, type StaticPathOptions } from './resolve-static-path.js'
export * from './static-path-error.js'
export { type EncodingChoice, pickEncoding } from './pick-encoding.js'
export { isFingerprinted } from './is-fingerprinted.js'
export type { FileInfo, StaticFiles } from './static-files.js'

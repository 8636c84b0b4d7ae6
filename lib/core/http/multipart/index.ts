/**
 * The pure `multipart/form-data` parser (RFC 7578, RFC 2046 §5.1): the boundary of a
 * Content-Type, limits, an incremental decoder fed chunk by chunk, and its errors.
 * Pure and portable: no node:* imports.
 */
export { boundaryOf, isValidBoundary, MAX_BOUNDARY } from './boundary-of.js'
export {
  decodeMultipart,
  type MultipartNeedMore,
  type MultipartParsed,
  type MultipartPhase,
  type MultipartState,
  type MultipartStep,
} from './decode-multipart.js'
export { endMultipart } from './end-multipart.js'
export * from './multipart-error.js'
export type { MultipartEnd, MultipartEvent, PartData, PartEnd, PartHead, PartStart } from './multipart-event.js'
export { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './multipart-limits.js'
export { startMultipart } from './start-multipart.js'

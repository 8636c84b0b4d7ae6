/**
 * `MultipartLimits`: what one `multipart/form-data` body may hold, as a value passed to
 * `startMultipart`. Each limit is checked as soon as the bytes that break it are seen.
 * The whole body is bounded by the route's body limit, not here.
 *
 * Pure and portable: no node:* imports.
 */

/** Bounds on one multipart body. */
export interface MultipartLimits {
  /** Bytes between a delimiter and its part's data: transport padding, line end, header lines, empty line. */
  readonly maxPartHeaderBytes: number
  /** Parts of any kind. */
  readonly maxParts: number
  /** Non-file parts (no `filename` parameter). */
  readonly maxFields: number
  /** File parts (a `filename` or `filename*` parameter, even empty). */
  readonly maxFiles: number
  /** Data bytes of one non-file part. */
  readonly maxFieldBytes: number
  /** Data bytes of one file part; `Infinity` leaves files to the body limit. */
  readonly maxFileBytes: number
}

/** 16 KiB of part headers, 1000 parts, 1000 fields, 100 files, 1 MiB per field, files bounded by the body limit only. */
export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = Object.freeze({
  maxPartHeaderBytes: 16384,
  maxParts: 1000,
  maxFields: 1000,
  maxFiles: 100,
  maxFieldBytes: 1048576,
  maxFileBytes: Number.POSITIVE_INFINITY,
})

/**
 * Request decompression (issue 30): the plan from `Content-Encoding` and a route's
 * `decompress` option, and the decoded body over a runtime's decoders.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
export { decodeBody } from './decode-body.js'
export type { HttpDecoder, RequestCoding } from './http-decoder.js'
export { type DecodingPlan, type DecompressOption, MAX_STACKED_CODINGS, planDecoding } from './plan-decoding.js'

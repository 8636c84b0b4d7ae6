/**
 * HTTP compression's pure half (the `compress` option, issue 30): the settings, the decision
 * of what to compress with what, the headers a compressed answer carries, and the codec
 * interface a runtime implements. Pure and portable: no node:* imports.
 */
export { type CompressConfig, type CompressOptions, type ContentCoding, DEFAULT_COMPRESS_CONFIG, resolveCompressConfig } from './compress-config.js'
export { type CompressionPlan, type CompressionPolicy, type CompressionRequest, planCompression } from './plan-compression.js'
export { encodedHeaders, notModifiedHeaders } from './encoded-headers.js'
export type { CodingStream, HttpCodec } from './http-codec.js'

/**
 * The public API of the pure HTTP/1.1 core: parsing, Request, Response, serialisation and
 * CORS, multipart/form-data. Pure and portable: no node:* imports.
 */
export type { ErrorBody, ErrorResponse, Header, HttpRequest, Json, JsonResponse, JsonSafe, Response, ResponseBody } from './types.js'
export * from './http-error.js'
export { DEFAULT_HTTP_LIMITS, type HttpLimits } from './http-limits.js'
export { type HttpDecodeStep, type HttpNeedMore, type HttpResume, parseHttpRequest } from './parse-http-request.js'
export { createHeadScratch, type HeadScratch, type PlainHead } from './head-scratch.js'
export { makeRequest, type Params, type Query, type QueryValue, type Request, type RequestBodyValue, type StreamRequest } from './request.js'
export { type BodyStream, BodyStreamError, type ExchangeOwner } from './body-stream.js'
export { bodyStreamOf, exchangeOf, readResponseBody } from './in-process-exchange.js'
export { type BodySource, isStreamBody, StreamBody } from './stream-body.js'
export { stream, type StreamOptions } from './stream-response.js'
export { serializeStreamHead, type StreamFraming, type StreamHead } from './serialize-stream-head.js'
export { CHUNK_TAIL, chunkSizeLine, LAST_CHUNK } from './chunk-framing.js'
export { type BodyPiece, type BodyReader, type BodyReadLimits, readBodyPiece, startBody } from './read-body-piece.js'
export { compactRequest } from './compact-request.js'
export * from './request-accessors.js'
export { parseQuery } from './parse-query.js'
export { percentDecode } from './percent-decode.js'
export { isJsonMediaType, mediaType } from './parse-request-body.js'
export {
  badRequest,
  download,
  type ErrorHelper,
  errorResponse,
  forbidden,
  type HeaderInput,
  html,
  isResponse,
  json,
  noContent,
  notFound,
  ok,
  redirect,
  response,
  serverError,
  text,
  unauthorized,
} from './response.js'
export * from './response-updates.js'
export { getBodyString, getResponseHeader, getResponseHeaders, responseToString } from './read-response.js'
export { createSerializeCache, type SerializeCache, serializeResponse, type SerializeOptions } from './serialize-response.js'
export { statusText } from './status-text.js'
export { type CorsConfig, type CorsConfigError, type CorsOptions, DEFAULT_CORS_CONFIG, decodeCorsConfig } from './cors-config.js'
export { compileCors, type Cors } from './compile-cors.js'
export { applyCors, isOriginAllowed, preflightResponse } from './cors.js'
export { httpErrorResponse } from './http-error-response.js'
export * from './static/index.js'
export * from './compress/index.js'
export * from './multipart/index.js'
export * from './decompress/index.js'

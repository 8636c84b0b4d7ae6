/**
 * WebSocket extensions: `Sec-WebSocket-Extensions` parsing (RFC 6455 §9.1) and
 * permessage-deflate (RFC 7692): negotiation, settings, the codec interface a runtime
 * implements, and the pure steps around compressed messages.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */
export { acceptDeflateOffer, type DeflateAgreement, PERMESSAGE_DEFLATE } from './accept-deflate-offer.js'
export { DEFAULT_DEFLATE_CONFIG, type DeflateConfig, type DeflateOptions } from './deflate-config.js'
export type { DeflateParams } from './deflate-params.js'
export { DEFLATE_TAIL, stripDeflateTail } from './deflate-tail.js'
export type { Extension, ExtensionParam } from './extension.js'
export * from './extension-error.js'
export { formatExtension } from './format-extension.js'
export { inflatedMessage } from './inflated-message.js'
export type { DeflateCodec, MessageCompressor, MessageDecompressor } from './message-codec.js'
export { type DeclinedOffer, type DeflateNegotiation, negotiateDeflate } from './negotiate-deflate.js'
export { parseExtensions } from './parse-extensions.js'
export { resolveDeflateConfig } from './resolve-deflate-config.js'

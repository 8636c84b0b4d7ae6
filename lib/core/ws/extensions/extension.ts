/**
 * One element of a `Sec-WebSocket-Extensions` header (RFC 6455 §9.1) as a value: an
 * extension name and its parameters, in the order they were written.
 *
 * Pure and portable: no node:* imports, no Buffer.
 */

/** `name` or `name=value`; a quoted value is kept unescaped, without its quotes. */
export interface ExtensionParam {
  readonly name: string
  /** `undefined` for a parameter written without `=`. */
  readonly value: string | undefined
}

/**
 * One offered (or accepted) extension, e.g. `permessage-deflate; client_max_window_bits`.
 *
 * @example
 * const offer: Extension = { name: 'permessage-deflate', params: [{ name: 'client_max_window_bits', value: undefined }] }
 */
export interface Extension {
  readonly name: string
  readonly params: readonly ExtensionParam[]
}

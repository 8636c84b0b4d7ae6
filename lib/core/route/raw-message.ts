/**
 * A WebSocket data message without the event envelope, as `onMessage` routes receive and
 * answer it. Pure and portable: no node:* imports, no Buffer.
 */

/** A complete text message (already checked as UTF-8) or binary message. */
export type RawMessage =
  | { readonly _tag: 'Text'; readonly text: string }
  | { readonly _tag: 'Binary'; readonly data: Uint8Array }

/** Builds a text message. */
export const rawText = (text: string): RawMessage => ({ _tag: 'Text', text })

/** Builds a binary message (the bytes are not copied). */
export const rawBinary = (data: Uint8Array): RawMessage => ({ _tag: 'Binary', data })

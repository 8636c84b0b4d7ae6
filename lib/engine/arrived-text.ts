/**
 * `ArrivedText`: a text message as an `onMessage` route receives it when it came in one small
 * frame, read straight from the bytes it arrived in (lib/core/ws/unmask-small-frame.ts): its
 * UTF-8 was checked before it was dispatched, but the string is made only when `text` is read.
 * A handler that only passes the message on (an echo, a relay) never pays for it, and the
 * frame that answers it is the one it arrived in.
 *
 * It is a `RawMessage` (`_tag` and `text`); `JSON.stringify` gives `{"_tag":"Text","text":…}`
 * as for a plain record, but `text` is a getter on the class, so a spread (`{ ...message }`)
 * copies only `_tag`: `rawText(message.text)` makes a plain copy.
 * Must not import `node:*`, Buffer or process.
 */

// Non-fatal: the bytes were checked as UTF-8 already. `ignoreBOM` keeps a leading U+FEFF in
// the text, as the check (lib/core/ws/utf8.ts) does.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true })

/** A single-frame text message whose UTF-8 payload lies at `bytes[at, at + length)`. */
export class ArrivedText {
  readonly _tag = 'Text' as const
  readonly #bytes: Uint8Array
  readonly #at: number
  readonly #length: number
  #text: string | undefined

  /**
   * `bytes[at, at + length)` must be valid UTF-8 and never change afterwards; `text`, when the
   * check already decoded it, is kept.
   *
   * @example
   * const message = new ArrivedText(new TextEncoder().encode('xhi'), 1, 2, undefined)
   * message.text // 'hi'
   */
  constructor(bytes: Uint8Array, at: number, length: number, text: string | undefined) {
    this.#bytes = bytes
    this.#at = at
    this.#length = length
    this.#text = text
  }

  /** The message's text, decoded on the first read. */
  get text(): string {
    return (this.#text ??= utf8.decode(this.#bytes.subarray(this.#at, this.#at + this.#length)))
  }

  /** The UTF-8 payload (a view of the bytes it arrived in: do not change it). */
  payload(): Uint8Array {
    return this.#bytes.subarray(this.#at, this.#at + this.#length)
  }

  /** As a plain record would be serialized. */
  toJSON(): { readonly _tag: 'Text'; readonly text: string } {
    return { _tag: 'Text', text: this.text }
  }
}

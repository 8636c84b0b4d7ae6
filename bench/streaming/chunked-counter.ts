/**
 * Counts the body bytes of an HTTP/1.1 response as they are read, for the streaming bench's
 * download client: chunked framing (RFC 9112 §7.1) parsed just enough to skip the size lines,
 * the CRLF after each chunk and the trailer section, checking each framing byte; a
 * `Content-Length` body counted to its length; a close-delimited body counted until the end.
 * The data bytes are never looked at. Pure; imports nothing.
 */

/** Where a body stands: still reading, complete (the last chunk or the length reached), or badly framed. */
export type CounterState = 'reading' | 'complete' | 'invalid'

type Phase = 'size' | 'ext' | 'sizeLf' | 'data' | 'dataCr' | 'dataLf' | 'trailer' | 'trailerLf' | 'done' | 'bad'

const hexValue = (b: number): number => (b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x61 && b <= 0x66 ? b - 0x57 : b >= 0x41 && b <= 0x46 ? b - 0x37 : -1)

/**
 * A body counter; `framing` says how the body is delimited.
 *
 * @example
 * const c = new ChunkedCounter({ kind: 'chunked' })
 * c.feed(new TextEncoder().encode('3\r\nabc\r\n0\r\n\r\n'), 0, 13) // 'complete'; c.bodyBytes === 3
 */
export class ChunkedCounter {
  /** Body bytes seen so far (chunk data only, for a chunked body). */
  bodyBytes = 0
  #phase: Phase
  #remaining: number
  #digits = 0
  #lineBytes = 0
  readonly #framing: { readonly kind: 'chunked' } | { readonly kind: 'length'; readonly length: number } | { readonly kind: 'close' }

  constructor(framing: { readonly kind: 'chunked' } | { readonly kind: 'length'; readonly length: number } | { readonly kind: 'close' }) {
    this.#framing = framing
    this.#phase = framing.kind === 'chunked' ? 'size' : framing.kind === 'length' && framing.length === 0 ? 'done' : 'data'
    this.#remaining = framing.kind === 'length' ? framing.length : Number.POSITIVE_INFINITY
  }

  /** The state so far. */
  get state(): CounterState {
    return this.#phase === 'done' ? 'complete' : this.#phase === 'bad' ? 'invalid' : 'reading'
  }

  /** Reads `bytes[from..to)`; answers the state after them. Bytes past the body make it invalid. */
  feed(bytes: Uint8Array, from: number, to: number): CounterState {
    let i = from
    while (i < to) {
      const phase = this.#phase
      if (phase === 'data') {
        const take = Math.min(this.#remaining, to - i)
        this.bodyBytes += take
        this.#remaining -= take
        i += take
        if (this.#remaining === 0) this.#phase = this.#framing.kind === 'chunked' ? 'dataCr' : 'done'
        continue
      }
      const b = bytes[i++] as number
      switch (phase) {
        case 'size': {
          const v = hexValue(b)
          if (v >= 0 && this.#digits < 12) {
            this.#remaining = (this.#digits === 0 ? 0 : this.#remaining * 16) + v
            this.#digits++
          } else if (b === 0x3b && this.#digits > 0) this.#phase = 'ext'
          else if (b === 0x0d && this.#digits > 0) this.#phase = 'sizeLf'
          else this.#phase = 'bad'
          break
        }
        case 'ext':
          if (b === 0x0d) this.#phase = 'sizeLf'
          break
        case 'sizeLf':
          this.#digits = 0
          this.#phase = b !== 0x0a ? 'bad' : this.#remaining === 0 ? 'trailer' : 'data'
          this.#lineBytes = 0
          break
        case 'dataCr':
          this.#phase = b === 0x0d ? 'dataLf' : 'bad'
          break
        case 'dataLf':
          this.#phase = b === 0x0a ? 'size' : 'bad'
          break
        case 'trailer':
          if (b === 0x0d) this.#phase = 'trailerLf'
          else this.#lineBytes++
          break
        case 'trailerLf':
          this.#phase = b !== 0x0a ? 'bad' : this.#lineBytes === 0 ? 'done' : 'trailer'
          this.#lineBytes = 0
          break
        case 'done':
        case 'bad':
          this.#phase = 'bad'
          return this.state
      }
    }
    return this.state
  }

  /** The connection ended: a close-delimited body is then complete; any other not yet complete is cut short. */
  end(): CounterState {
    if (this.#framing.kind === 'close' && this.#phase === 'data') this.#phase = 'done'
    return this.state
  }
}

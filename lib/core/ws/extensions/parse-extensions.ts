/**
 * `parseExtensions`: a `Sec-WebSocket-Extensions` header value as a list of extensions with
 * their parameters (RFC 6455 §9.1). Several header lines are one list once joined with `, `
 * (RFC 9110 §5.3), as `headerValue` joins them.
 *
 * Pure and portable: no node:* imports, no Buffer. Never throws.
 */
import * as E from 'fp-ts/lib/Either.js'
import { TCHAR } from '../../http/char-classes.js'
import type { Extension, ExtensionParam } from './extension.js'
import { type InvalidExtensionsHeader, invalidExtensionsHeader } from './extension-error.js'

// RFC 6455 §9.1:
//   Sec-WebSocket-Extensions = extension-list
//   extension-list = 1#extension
//   extension = extension-token *( ";" extension-param )
//   extension-token = registered-token
//   registered-token = token
//   extension-param = token [ "=" (token | quoted-string) ]
//       ;When using the quoted-string syntax variant, the value
//       ;after quoted-string unescaping MUST conform to the
//       ;'token' ABNF.
// The `#` list rule (RFC 9110 §5.6.1) allows optional whitespace around "," and empty
// elements ("a, , b"), which a recipient must accept and ignore; the implied whitespace of
// RFC 2616 that RFC 6455 was written against is accepted around ";" and "=" as well.

const SP = 0x20
const HTAB = 0x09
const DQUOTE = 0x22
const BACKSLASH = 0x5c

const isTchar = (c: number): boolean => c < 256 && TCHAR[c] === 1

// RFC 9110 §5.6.4: qdtext = HTAB / SP / %x21 / %x23-5B / %x5D-7E / obs-text
const isQdtext = (c: number): boolean => c === HTAB || c === SP || c === 0x21 || (c >= 0x23 && c <= 0x5b) || (c >= 0x5d && c <= 0x7e) || (c >= 0x80 && c <= 0xff)

// quoted-pair = "\" ( HTAB / SP / VCHAR / obs-text )
const isQuotable = (c: number): boolean => c === HTAB || (c >= 0x20 && c <= 0x7e) || (c >= 0x80 && c <= 0xff)

class Failure {
  constructor(readonly error: InvalidExtensionsHeader) {}
}

// A scanner over the header text; `fail` throws a Failure that `parseExtensions` turns into
// a Left, the one place an exception becomes a value.
class Scanner {
  at = 0
  constructor(readonly text: string) {}

  peek(): number {
    return this.at < this.text.length ? this.text.charCodeAt(this.at) : -1
  }

  skipSpace(): void {
    for (let c = this.peek(); c === SP || c === HTAB; c = this.peek()) this.at++
  }

  fail(expected: string, at = this.at): never {
    throw new Failure(invalidExtensionsHeader(at, expected))
  }

  token(expected: string): string {
    const from = this.at
    while (isTchar(this.peek())) this.at++
    if (this.at === from) this.fail(expected)
    return this.text.slice(from, this.at)
  }

  quoted(): string {
    const from = this.at
    this.at++ // the opening quote
    let out = ''
    for (;;) {
      const c = this.peek()
      if (c === DQUOTE) break
      if (c === BACKSLASH) {
        this.at++
        if (!isQuotable(this.peek())) this.fail('an escaped character')
      } else if (!isQdtext(c)) {
        this.fail(c === -1 ? 'a closing quote' : 'a character allowed in a quoted string')
      }
      out += this.text[this.at]
      this.at++
    }
    this.at++ // the closing quote
    for (let i = 0; i < out.length; i++) if (!isTchar(out.charCodeAt(i))) this.fail('a token inside the quotes', from)
    if (out === '') this.fail('a token inside the quotes', from)
    return out
  }

  param(): ExtensionParam {
    const name = this.token('a parameter name')
    const before = this.at
    this.skipSpace()
    if (this.peek() !== 0x3d) {
      this.at = before
      return { name, value: undefined }
    }
    this.at++
    this.skipSpace()
    const value = this.peek() === DQUOTE ? this.quoted() : this.token('a parameter value')
    return { name, value }
  }

  extension(): Extension {
    const name = this.token('an extension name')
    const params: ExtensionParam[] = []
    for (;;) {
      this.skipSpace()
      const c = this.peek()
      if (c === -1 || c === 0x2c) return { name, params }
      if (c !== 0x3b) this.fail('";" or ","')
      this.at++
      this.skipSpace()
      params.push(this.param())
    }
  }

  list(): Extension[] {
    const out: Extension[] = []
    for (;;) {
      this.skipSpace()
      const c = this.peek()
      if (c === -1) return out
      if (c === 0x2c) {
        this.at++
        continue
      }
      out.push(this.extension())
    }
  }
}

/**
 * The extensions in a `Sec-WebSocket-Extensions` value, in order (the client's order of
 * preference, RFC 7692 §5); an empty list for an empty value. `Left` with the offset where
 * the grammar broke for anything else.
 *
 * @example
 * parseExtensions('permessage-deflate; client_max_window_bits, permessage-deflate')
 * // Right([{ name: 'permessage-deflate', params: [{ name: 'client_max_window_bits', value: undefined }] },
 * //        { name: 'permessage-deflate', params: [] }])
 * parseExtensions('permessage-deflate; server_max_window_bits="10"')
 * // Right([{ name: 'permessage-deflate', params: [{ name: 'server_max_window_bits', value: '10' }] }])
 * parseExtensions('permessage-deflate;')._tag // 'Left': a parameter name is expected at 19
 */
export const parseExtensions = (value: string): E.Either<InvalidExtensionsHeader, readonly Extension[]> => {
  try {
    return E.right(new Scanner(value).list())
  } catch (e) {
    // Only the scanner throws here (string indexing does not), and only a Failure.
    return E.left((e as Failure).error)
  }
}

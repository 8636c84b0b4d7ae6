/**
 * Byte classes of the HTTP grammar as 256-entry lookup tables, so the parser tests a byte
 * with one indexed load instead of a chain of comparisons. Pure and portable.
 */

const table = (accept: (b: number) => boolean): Uint8Array => Uint8Array.from({ length: 256 }, (_, b) => (accept(b) ? 1 : 0))

// RFC 9110 §5.6.2: tchar = "!" / "#" / "$" / "%" / "&" / "'" / "*" / "+" / "-" / "." /
//                          "^" / "_" / "`" / "|" / "~" / DIGIT / ALPHA
const TCHAR_SYMBOLS = "!#$%&'*+-.^_`|~"

/** 1 for the bytes of a token (method, field name, transfer coding). */
export const TCHAR: Uint8Array = table(
  (b) =>
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || TCHAR_SYMBOLS.includes(String.fromCharCode(b)),
)

// RFC 9110 §5.5: field-value bytes are VCHAR / obs-text with SP and HTAB between them.
/** 1 for the bytes allowed inside a field value. */
export const FIELD_VALUE: Uint8Array = table((b) => b === 0x09 || (b >= 0x20 && b !== 0x7f))

// RFC 9112 §3.2 with RFC 3986: a request-target is visible ASCII; no fragment ("#").
/** 1 for the bytes allowed in a request-target. */
export const TARGET: Uint8Array = table((b) => b > 0x20 && b < 0x7f && b !== 0x23)

// RFC 3986 §3.2.2: reg-name = *( unreserved / pct-encoded / sub-delims ), with
// §2.3 unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~" and
// §2.2 sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
/** 1 for the bytes a reg-name (a Host name) may hold as they are; "%" (pct-encoded) is apart. */
export const REG_NAME: Uint8Array = table(
  (b) => (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5a) || (b >= 0x61 && b <= 0x7a) || "-._~!$&'()*+,;=".includes(String.fromCharCode(b)),
)

/** 0–15 for hex digits, 255 otherwise (RFC 9112 §7.1: chunk-size = 1*HEXDIG). */
export const HEX: Uint8Array = Uint8Array.from({ length: 256 }, (_, b) =>
  b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 0x37 : b >= 0x61 && b <= 0x66 ? b - 0x57 : 255,
)

export const SP = 0x20
export const HTAB = 0x09
export const CR = 0x0d
export const LF = 0x0a
export const COLON = 0x3a

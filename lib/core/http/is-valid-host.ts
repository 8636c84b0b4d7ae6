/**
 * `isValidHost`: whether a Host field value is `uri-host [ ":" port ]` (RFC 9110 §7.2), the
 * host being RFC 3986 §3.2.2's `IP-literal / IPv4address / reg-name`. RFC 9112 §3.2 makes a
 * server answer 400 to "a Host header field with an invalid field value". An empty value is
 * valid (an empty reg-name: "the client MUST send a Host header field with an empty field
 * value" when the authority is empty).
 *
 * Pure and portable: no node:* imports.
 */
import { REG_NAME } from './char-classes.js'

// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
const FUTURE = Uint8Array.from({ length: 256 }, (_, b) => (REG_NAME[b] === 1 || b === 0x3a ? 1 : 0))

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)
const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39

// reg-name in s[from..to); IPv4address (dotted decimal) is a reg-name too, syntactically.
const isRegName = (s: string, from: number, to: number): boolean => {
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i)
    if (c === 0x25) {
      if (i + 2 >= to || !isHex(s.charCodeAt(i + 1)) || !isHex(s.charCodeAt(i + 2))) return false
      i += 2
    } else if (c > 0xff || REG_NAME[c] !== 1) return false
  }
  return true
}

// dec-octet = DIGIT / %x31-39 DIGIT / "1" 2DIGIT / "2" %x30-34 DIGIT / "25" %x30-35
const isDecOctet = (part: string): boolean =>
  part.length >= 1 && part.length <= 3 && [...part].every((d) => isDigit(d.charCodeAt(0))) && (part.length === 1 || part[0] !== '0') && Number(part) <= 255

// IPv4address = dec-octet "." dec-octet "." dec-octet "." dec-octet
const isIpv4 = (s: string): boolean => {
  const parts = s.split('.')
  return parts.length === 4 && parts.every(isDecOctet)
}

const isH16 = (g: string): boolean => g.length >= 1 && g.length <= 4 && [...g].every((d) => isHex(d.charCodeAt(0)))

// RFC 3986 §3.2.2: IPv6address, eight h16 pieces (the last two may be an IPv4address), or
// fewer with one "::" standing for one or more zero pieces.
const isIpv6 = (s: string): boolean => {
  const gap = s.indexOf('::')
  if (gap >= 0 && s.indexOf('::', gap + 1) >= 0) return false
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'))
  const groups = gap < 0 ? split(s) : [...split(s.slice(0, gap)), ...split(s.slice(gap + 2))]
  let pieces = groups.length
  // ls32 may end the address with an IPv4address: only the text after the last ":".
  if (s.slice(s.lastIndexOf(':') + 1).includes('.')) {
    if (!isIpv4(groups[groups.length - 1] as string)) return false
    groups.pop()
    pieces += 1
  }
  if (!groups.every(isH16)) return false
  return gap < 0 ? pieces === 8 : pieces <= 7
}

// IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
const isIpvFuture = (s: string): boolean => {
  if (s.charCodeAt(0) !== 0x76 && s.charCodeAt(0) !== 0x56) return false
  const dot = s.indexOf('.')
  if (dot < 2 || dot === s.length - 1) return false
  for (let i = 1; i < dot; i++) if (!isHex(s.charCodeAt(i))) return false
  for (let i = dot + 1; i < s.length; i++) {
    const c = s.charCodeAt(i)
    if (c > 0xff || FUTURE[c] !== 1) return false
  }
  return true
}

/**
 * Whether `value` (a Host field value, OWS already trimmed) is `uri-host [ ":" port ]`.
 *
 * @example
 * isValidHost('example.com:8080') // true
 * isValidHost('[::1]:6001') // true
 * isValidHost('a b') // false
 */
export const isValidHost = (value: string): boolean => {
  let end = value.length
  // IP-literal = "[" ( IPv6address / IPvFuture ) "]"
  if (value.charCodeAt(0) === 0x5b) {
    end = value.indexOf(']')
    if (end < 0) return false
    const inside = value.slice(1, end)
    if (!isIpv6(inside) && !isIpvFuture(inside)) return false
    end += 1
  } else {
    const colon = value.indexOf(':')
    if (colon >= 0) end = colon
    if (!isRegName(value, 0, end)) return false
  }
  if (end === value.length) return true
  // port = *DIGIT (RFC 3986 §3.2.3), after one ":"
  if (value.charCodeAt(end) !== 0x3a) return false
  for (let i = end + 1; i < value.length; i++) if (!isDigit(value.charCodeAt(i))) return false
  return true
}


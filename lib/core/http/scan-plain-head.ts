/**
 * `scanPlainHead`: the single pass over a request head for the common case, a fresh buffer
 * whose head is plain ASCII. One walk over the bytes finds the end of the head and checks
 * and splits every line on the way (RFC 9112 §2.1, §3, §5); the target, names and values
 * are then interned (`internAscii`), not decoded, and the target and a plain Host value are
 * compared on the way with the last ones (a one-string memo each), so the usual request
 * takes neither a table lookup nor a second walk for them. A request line that is the same
 * bytes as the last plain head's, and a field line that is the same bytes as the last plain
 * head's line at its position, are taken from the line memo (`line-memo.ts`) without being
 * checked or interned again, and long values are checked a
 * word at a time (`word-view.ts`). What it read goes into the server's scratch record
 * (`head-scratch.ts`: reading never calls out, so one record serves every call), for
 * `readHead` to complete into a head and `readRequest` to make a request of without one;
 * the memos are kept there too, so servers share nothing.
 *
 * It answers only what it is sure of: the length of the complete head, or `SCAN` when the
 * buffer ends inside a head that is valid so far (how far it searched is in `scratch.head`),
 * or `EXACT` for anything else (a byte outside the plain grammar, obs-text, a limit
 * reached), which the exact path decides.
 *
 * Pure and portable: no node:* imports.
 * Over 300 lines on purpose: one loop over the bytes whose states (request line, field name,
 * value, line end) hand their cursors to each other; cut, each part would need the others'.
 */
import * as classes from './char-classes.js'
import { type HeadScratch, MEMO } from './head-scratch.js'
import type { HttpLimits } from './http-limits.js'
import { internAscii, type InternTables } from './intern-ascii.js'
import {
  FRAMING_LINE, HOST_CHECKED_LINE, HOST_UNCHECKED_LINE, KEEP_ALIVE_LINE, LINE_SLOTS, OTHER_LINE, REQUEST_LINE, rememberLine, rememberRequestLine,
  sameLine, UPGRADE_LINE,
} from './line-memo.js'
import { lineLimit } from './scan-head.js'
import type { Header } from './types.js'
import { outsideVisible, wordsFor } from './word-view.js'

/** The answer when the exact path must decide. */
export const EXACT = -1
/** The answer when the buffer ends inside a head valid so far (see `scratch.head.searched`). */
export const SCAN = -2
/** The answer when the buffer ends inside the request line: a fresh scan. */
export const SCAN_START = -3

// Local copies: a module binding read in a hot loop can cost a getter call under some loaders.
const { CR, LF, SP, HTAB, COLON, REG_NAME, TCHAR } = classes

// The last request-target and the last plain Host value, each with its bytes (up to `MEMO`
// of them). A pipelined or keep-alive connection sends the same ones request after request:
// the scan compares each byte with the memo's as it checks it (one pass), and when all
// match and the lengths agree the memo's string is the answer, with no table lookup and no
// second walk. Any difference costs an `internAscii`, which then becomes the memo. The
// memos hold strings only, the same `internAscii` would give for the same bytes. They are
// the scratch record's (`targetBytes`, `targetMemo`, `hostBytes`, `hostMemo`).
const MEMO_MASK = MEMO - 1

// The target of `bytes[start..end)` (interned), kept as the new memo when it fits (a memo
// string and its bytes always change together).
const rememberTarget = (scratch: HeadScratch, bytes: Uint8Array, start: number, end: number): string => {
  const made = internAscii(scratch.intern, bytes, start, end)
  if (end - start <= MEMO) {
    scratch.targetBytes.set(bytes.subarray(start, end))
    scratch.targetMemo = made
  }
  return made
}

// The same for a plain Host value.
const rememberHost = (scratch: HeadScratch, bytes: Uint8Array, start: number, end: number): string => {
  const made = internAscii(scratch.intern, bytes, start, end)
  if (end - start <= MEMO) {
    scratch.hostBytes.set(bytes.subarray(start, end))
    scratch.hostMemo = made
  }
  return made
}

// Field offsets of the head being read (the scratch record's `offsets`), `STRIDE` per field:
// `[nameStart, nameEnd, valueStart, valueEnd, lineEnd (its CR), kind]`, or a `nameEnd` of -1
// for a line that is the line memo's for its position (`line-memo.ts`). Reading never calls
// out, so one scratch array serves every call.
const STRIDE = 6

// The method as an interned string when it is a common one (no decoding), else from the table.
const methodOf = (tables: InternTables, bytes: Uint8Array, start: number, end: number): string => {
  const n = end - start
  const a = bytes[start] as number
  const b = bytes[start + 1] as number
  const c = bytes[start + 2] as number
  if (n === 3) {
    if (a === 0x47 && b === 0x45 && c === 0x54) return 'GET'
    if (a === 0x50 && b === 0x55 && c === 0x54) return 'PUT'
  } else if (n === 4) {
    const d = bytes[start + 3] as number
    if (a === 0x50 && b === 0x4f && c === 0x53 && d === 0x54) return 'POST'
    if (a === 0x48 && b === 0x45 && c === 0x41 && d === 0x44) return 'HEAD'
  }
  return internAscii(tables, bytes, start, end)
}

// Lower-case names as bytes, to compare with `b | 0x20`: for token bytes that equals a
// lower-case letter or "-" only for that letter in either case, or for "-" itself.
const lowerBytes = (name: string): Uint8Array => Uint8Array.from(name, (c) => c.charCodeAt(0))
const EXPECT = lowerBytes('expect')
const CONNECTION = lowerBytes('connection')
const CONTENT_LENGTH = lowerBytes('content-length')
const TRANSFER_ENCODING = lowerBytes('transfer-encoding')
const UPGRADE = lowerBytes('upgrade')
const KEEP_ALIVE = lowerBytes('keep-alive')

// Whether the token bytes at `at` spell `lower` in any case.
const isNameAt = (bytes: Uint8Array, at: number, lower: Uint8Array): boolean => {
  for (let i = 0; i < lower.length; i++) if (((bytes[at + i] as number) | 0x20) !== lower[i]) return false
  return true
}

// Whether the field value `bytes[start..end)` is the one token keep-alive in any case (for
// value bytes too, `b | 0x20` is a lower-case letter or "-" only for that letter in either
// case or for "-" or CR, and a value holds no CR).
const isKeepAlive = (bytes: Uint8Array, start: number, end: number): boolean =>
  end - start === 10 && isNameAt(bytes, start, KEEP_ALIVE)

// Whether the 4 token bytes at `at` spell "host" in any case.
const isHostAt = (bytes: Uint8Array, at: number): boolean =>
  ((bytes[at] as number) | 0x20) === 0x68 && ((bytes[at + 1] as number) | 0x20) === 0x6f &&
  ((bytes[at + 2] as number) | 0x20) === 0x73 && ((bytes[at + 3] as number) | 0x20) === 0x74

// What the field line is (`line-memo.ts` kinds): FRAMING_LINE when its name drives the
// framing or the connection (RFC 9112 §6, §9; RFC 9110 §10.1.1), but for `Connection:
// keep-alive` (KEEP_ALIVE_LINE); UPGRADE_LINE for Upgrade. Only with a FRAMING_LINE are the
// fields read one by one once the head is complete. Host is checked on the way instead.
const kindOf = (bytes: Uint8Array, at: number, length: number, valueStart: number, valueEnd: number): number => {
  switch (length) {
    case 6:
      return isNameAt(bytes, at, EXPECT) ? FRAMING_LINE : OTHER_LINE
    case 7:
      return isNameAt(bytes, at, UPGRADE) ? UPGRADE_LINE : OTHER_LINE
    case 10:
      return isNameAt(bytes, at, CONNECTION) ? (isKeepAlive(bytes, valueStart, valueEnd) ? KEEP_ALIVE_LINE : FRAMING_LINE) : OTHER_LINE
    case 14:
      return isNameAt(bytes, at, CONTENT_LENGTH) ? FRAMING_LINE : OTHER_LINE
    case 17:
      return isNameAt(bytes, at, TRANSFER_ENCODING) ? FRAMING_LINE : OTHER_LINE
    default:
      return OTHER_LINE
  }
}

// An array of `n` headers to fill in: a literal for a head of up to four fields (made
// inline, ~10 ns less than `new Array(n)`, a call, for wrk's one-field head), else sized
// once (a literal pushed to grows a backing store of 17 slots for a single field).
const UNSET: Header = Object.freeze(['', ''] as const)
const sized = (n: number): Header[] =>
  n === 1 ? [UNSET] : n === 2 ? [UNSET, UNSET] : n === 3 ? [UNSET, UNSET, UNSET] : n === 4 ? [UNSET, UNSET, UNSET, UNSET] : new Array<Header>(n)

/**
 * Scans the head at `bytes[start..]`: its length from `start` (the head is in
 * `scratch.head`), or `SCAN`, `SCAN_START` or `EXACT`.
 *
 * @example
 * scanPlainHead(bytes('GET / HTTP/1.1\r\nHost: a\r\n\r\n'), DEFAULT_HTTP_LIMITS, 0, scratch) // 27; scratch.head.target === '/'
 */
export const scanPlainHead = (bytes: Uint8Array, limits: HttpLimits, start: number, scratch: HeadScratch): number => {
  const len = bytes.length
  const lines = scratch.lines
  const offsets = scratch.offsets
  // The limits, as absolute offsets in `bytes`.
  const maxLine = start + lineLimit(limits)
  const maxHead = start + limits.maxHeaderBytes
  // RFC 9112 §3: request-line = method SP request-target SP HTTP-version CRLF
  let pos = start
  let methodEnd = start
  let targetStart = start
  let targetEnd = start
  let query = -1
  // Differences from the target memo's bytes (index masked: only read when the lengths agree).
  let targetDiff = 0
  let lineEnd: number
  let protocol: 'HTTP/1.0' | 'HTTP/1.1'
  // The request line kept from the last plain head, again (a client repeats its method,
  // target and version): its parts are known, and its bytes were checked when it was kept.
  const known = sameLine(lines, bytes, start, REQUEST_LINE)
  if (known > 0) {
    lineEnd = start + known + 1
    protocol = lines.requestLine.protocol
  } else {
    const targetBytes = scratch.targetBytes
    while (TCHAR[bytes[pos] as number] === 1) pos++
    // The buffer ends inside the request line: `scanHead` checks it (it is short).
    if (pos === len) return SCAN_START
    methodEnd = pos
    if (methodEnd === start || bytes[pos] !== SP) return EXACT
    targetStart = ++pos
    // Visible ASCII but "#" (RFC 9112 §3.2, RFC 3986), by comparison (undefined fails it).
    let b = bytes[pos] as number
    while (b >= 0x21 && b <= 0x7e && b !== 0x23) {
      if (b === 0x3f && query < 0) query = pos
      targetDiff |= b ^ (targetBytes[(pos - targetStart) & MEMO_MASK] as number)
      b = bytes[++pos] as number
    }
    targetEnd = pos
    // HTTP-version = "HTTP/" DIGIT "." DIGIT (RFC 9112 §2.3); 1.0 and 1.1 only here.
    const v = pos + 1
    if (v + 10 > len) return pos >= len || b === SP ? SCAN_START : EXACT
    if (
      b !== SP || targetEnd === targetStart ||
      bytes[v] !== 0x48 || bytes[v + 1] !== 0x54 || bytes[v + 2] !== 0x54 || bytes[v + 3] !== 0x50 || bytes[v + 4] !== 0x2f ||
      bytes[v + 5] !== 0x31 || bytes[v + 6] !== 0x2e || (bytes[v + 7] !== 0x31 && bytes[v + 7] !== 0x30) ||
      bytes[v + 8] !== CR || bytes[v + 9] !== LF
    ) {
      return EXACT
    }
    lineEnd = v + 9
    protocol = bytes[v + 7] === 0x31 ? 'HTTP/1.1' : 'HTTP/1.0'
  }
  if (lineEnd > maxLine + 1 || lineEnd + 1 > maxHead) return EXACT

  // RFC 9112 §5: field-line = field-name ":" OWS field-value OWS, each ending in CRLF; the
  // head ends with an empty line.
  const maxFields = limits.maxHeaders * STRIDE
  let count = 0
  // The field's position (`count / STRIDE`).
  let field = 0
  let hosts = 0
  let hostChecked = false
  // The offset index (in `offsets`) of the last Host field whose name is "Host" as written,
  // and whether its value is the Host memo's.
  let hostField = -1
  let hostSame = false
  let plain = true
  let upgrade = false
  pos = lineEnd + 1
  for (;;) {
    const lineStart = pos
    let c = bytes[pos] as number
    if (c === CR) {
      if (pos + 1 >= len) break
      if (bytes[pos + 1] !== LF || pos + 2 > maxHead) return EXACT
      // Names, values and the target are short runs that repeat from request to request:
      // interned rather than decoded.
      const headers = sized(field)
      for (let i = 0, k = 0; i < count; i += STRIDE, k++) {
        if (offsets[i + 1] === -1) {
          headers[k] = lines.headers[k] as Header
        } else {
          const at = offsets[i] as number
          let name: string
          let value: string
          if (i === hostField) {
            name = 'Host'
            value = hostSame ? scratch.hostMemo : rememberHost(scratch, bytes, offsets[i + 2] as number, offsets[i + 3] as number)
          } else {
            name = internAscii(scratch.intern, bytes, at, offsets[i + 1] as number)
            value = internAscii(scratch.intern, bytes, offsets[i + 2] as number, offsets[i + 3] as number)
          }
          // Kept for its position, for the next head, frozen: a later request may share it.
          if (k < LINE_SLOTS) {
            const header = Object.freeze([name, value] as const)
            headers[k] = header
            rememberLine(lines, bytes, at, offsets[i + 4] as number, k, header, offsets[i + 5] as number)
          } else headers[k] = Object.freeze([name, value] as const)
        }
      }
      const out = scratch.head
      if (known > 0) {
        const line = lines.requestLine
        out.method = line.method
        out.target = line.target
        out.query = line.query
        out.targetOffset = line.targetOffset
      } else {
        const method = methodOf(scratch.intern, bytes, start, methodEnd)
        const targetMemo = scratch.targetMemo
        const target = targetDiff === 0 && targetEnd - targetStart === targetMemo.length
          ? targetMemo
          : rememberTarget(scratch, bytes, targetStart, targetEnd)
        const q = query < 0 ? -1 : query - targetStart
        rememberRequestLine(lines, bytes, start, lineEnd - 1, method, target, q, protocol)
        out.method = method
        out.target = target
        out.query = q
        out.targetOffset = targetStart - start
      }
      out.protocol = protocol
      out.headers = headers
      out.hosts = hosts
      out.hostChecked = hostChecked
      out.plain = plain
      out.upgrade = upgrade
      return pos + 2 - start
    }
    // The line kept for this position, again: its strings and its kind are known, and its
    // bytes were checked when it was kept.
    if (field < LINE_SLOTS) {
      const n = sameLine(lines, bytes, pos, field)
      if (n > 0) {
        pos += n
        if (pos + 2 > maxHead || count === maxFields) return EXACT
        const kind = lines.kinds[field] as number
        if (kind >= HOST_CHECKED_LINE) {
          hosts++
          hostChecked = kind === HOST_CHECKED_LINE
        } else if (kind === UPGRADE_LINE) upgrade = true
        else if (kind === FRAMING_LINE || (kind === KEEP_ALIVE_LINE && protocol !== 'HTTP/1.1')) plain = false
        offsets[count] = lineStart
        offsets[count + 1] = -1
        count += STRIDE
        field++
        pos += 2
        continue
      }
    }
    // The usual Host line's name, "Host" as written, is taken whole (five bytes, no table).
    const hostAsWritten = c === 0x48 && bytes[pos + 1] === 0x6f && bytes[pos + 2] === 0x73 && bytes[pos + 3] === 0x74 && bytes[pos + 4] === COLON
    if (hostAsWritten) {
      pos += 4
      c = COLON
    } else while (TCHAR[c] === 1) c = bytes[++pos] as number
    const nameEnd = pos
    if (c !== COLON || nameEnd === lineStart) {
      if (pos >= len) break
      return EXACT
    }
    c = bytes[++pos] as number
    while (c === SP || c === HTAB) c = bytes[++pos] as number
    const valueStart = pos
    // RFC 9112 §3.2: the Host value is checked on the way, in the one walk over the value:
    // `reg-name [ ":" *DIGIT ]` (its usual form) straight up to the CR is valid; anything
    // else goes on as a plain value and is left to `isValidHost` once complete.
    const isHost = hostAsWritten || (nameEnd - lineStart === 4 && isHostAt(bytes, lineStart))
    let plainHost = false
    // Differences from the Host memo's bytes, as for the target.
    let hostDiff = 0
    if (isHost) {
      const hostBytes = scratch.hostBytes
      while (REG_NAME[c] === 1) {
        hostDiff |= c ^ (hostBytes[(pos - valueStart) & MEMO_MASK] as number)
        c = bytes[++pos] as number
      }
      if (c === COLON) {
        hostDiff |= COLON ^ (hostBytes[(pos - valueStart) & MEMO_MASK] as number)
        c = bytes[++pos] as number
        while (c >= 0x30 && c <= 0x39) {
          hostDiff |= c ^ (hostBytes[(pos - valueStart) & MEMO_MASK] as number)
          c = bytes[++pos] as number
        }
      }
      plainHost = c === CR
    }
    // VCHAR and SP (0x20–0x7E), a word at a time while a whole word is in the buffer, then
    // by comparison rather than a table up to the first other byte; HTAB apart. Past the end
    // of the buffer `c` is undefined, which fails every comparison.
    for (;;) {
      if (c >= 0x20 && c <= 0x7e) {
        const words = wordsFor(scratch.words, bytes, len - pos)
        if (words !== undefined) while (pos + 4 <= len && !outsideVisible(words.getInt32(pos, true))) pos += 4
        c = bytes[pos] as number
        while (c >= 0x20 && c <= 0x7e) c = bytes[++pos] as number
      }
      if (c !== HTAB) break
      c = bytes[++pos] as number
    }
    if (c !== CR || bytes[pos + 1] !== LF) {
      if (pos + 1 >= len && (pos >= len || c === CR)) break
      return EXACT
    }
    // The LF at pos + 1 must stay within the head limit, and the field count within its own.
    if (pos + 2 > maxHead || count === maxFields) return EXACT
    let valueEnd = pos
    while (valueEnd > valueStart) {
      const t = bytes[valueEnd - 1] as number
      if (t !== SP && t !== HTAB) break
      valueEnd--
    }
    if (isHost) {
      hosts++
      hostChecked = plainHost
      // The name as written is the usual "Host" (a constant), and the value a plain one (kept
      // in the memo): the last such field is made from them, any other by `internAscii`.
      if (plainHost && hostAsWritten) {
        hostField = count
        hostSame = hostDiff === 0 && pos - valueStart === scratch.hostMemo.length
      }
    }
    const kind = isHost ? (plainHost ? HOST_CHECKED_LINE : HOST_UNCHECKED_LINE) : kindOf(bytes, lineStart, nameEnd - lineStart, valueStart, valueEnd)
    if (kind === UPGRADE_LINE) upgrade = true
    // RFC 9112 §9.3: "If the received protocol is HTTP/1.1 (or later), the connection will
    // persist after the current response" unless "close": keep-alive alone changes nothing.
    // Browsers send it on every request.
    else if (kind === FRAMING_LINE || (kind === KEEP_ALIVE_LINE && protocol !== 'HTTP/1.1')) plain = false
    offsets[count] = lineStart
    offsets[count + 1] = nameEnd
    offsets[count + 2] = valueStart
    offsets[count + 3] = valueEnd
    offsets[count + 4] = pos
    offsets[count + 5] = kind
    count += STRIDE
    field++
    pos += 2
  }
  // The buffer ended inside a field line that is valid so far, and no byte before `pos` is an
  // LF that was not checked as `scanHead` checks it (CRLF, within the limits): it goes on from
  // there, with its own checks for the rest (the limits included).
  const out = scratch.head
  out.searched = Math.min(pos, len) - start
  out.lineEnd = lineEnd - start
  return SCAN
}

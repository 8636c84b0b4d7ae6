/**
 * A smoke run of the pure core for a browser page: bundled by the spec beside it and
 * executed in headless Chromium, where there is no `process`, no `Buffer` and no
 * `node:*` module. Returns the checks that failed (empty when all hold) and which masking
 * path the page used.
 *
 * Masking is checked on both paths `mask.ts` can take: WebAssembly SIMD (payloads past 64
 * bytes, where the engine has it) and, with SIMD switched off, the JavaScript fallback. Each
 * masked frame is compared byte for byte with a plain XOR computed here, so a round trip
 * through a wrong (even an identity) mask fails.
 */
import * as E from 'fp-ts/lib/Either.js'
import {
  acceptKey,
  assembleMessage,
  compileCors,
  compileRoutes,
  decodeEnvelope,
  decodeFrame,
  DEFAULT_CORS_CONFIG,
  encodeEvent,
  encodeFrameBytes,
  formatMessage,
  httpRoute,
  initialAssembly,
  json,
  matchRoute,
  parseHttpRequest,
  serializeResponse,
} from '../../lib/core/index.js'
import { createMasker, type Masker } from '../../lib/core/ws/mask.js'

/** What the page reports: the failed checks, and the path masking took with SIMD on. */
export interface SmokeReport {
  readonly failures: string[]
  readonly maskPath: 'simd' | 'js'
}

// A deterministic, non-repeating payload (xorshift32), so a key applied out of phase, a
// chunk masked twice or skipped, or a tail left unmasked all change some byte.
const pattern = (length: number, seed: number): Uint8Array => {
  const out = new Uint8Array(length)
  let x = seed >>> 0 || 1
  for (let i = 0; i < length; i++) {
    x ^= x << 13
    x ^= x >>> 17
    x ^= x << 5
    out[i] = x & 0xff
  }
  return out
}

// The index of the first byte where `a` and `b` differ, -1 when they are equal.
const firstDifference = (a: Uint8Array, b: Uint8Array): number => {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return i
  return a.length === b.length ? -1 : n
}

// The header `encodeFrameBytes` must write for a final binary frame of `length` bytes masked
// with `key` (RFC 6455 §5.2), computed independently of the encoder.
const expectedHeader = (length: number, key: Uint8Array): number[] => {
  const lengthBytes =
    length < 126
      ? [0x80 | length]
      : length < 0x1_0000
        ? [0x80 | 126, length >>> 8, length & 0xff]
        : [0x80 | 127, 0, 0, 0, 0, length >>> 24, (length >>> 16) & 0xff, (length >>> 8) & 0xff, length & 0xff]
  return [0x82, ...lengthBytes, ...key]
}

/**
 * Encodes a masked binary frame of `length` bytes, decodes it and assembles it, checking each
 * step against a plain XOR; answers the encoded frame (for comparing the two paths).
 */
const maskedRoundTrip = (check: (what: string, ok: boolean) => void, path: string, length: number, key: Uint8Array, masker: Masker): Uint8Array => {
  const name = `${path} ${length} B`
  const input = pattern(length, length * 31 + key[0]!)
  const original = input.slice()
  const frame = encodeFrameBytes({ opcode: 2, payload: input }, key, masker)
  check(`${name}: input not modified by encodeFrameBytes (first difference at ${firstDifference(input, original)})`, firstDifference(input, original) === -1)

  const header = expectedHeader(length, key)
  check(`${name}: frame length ${frame.length}, expected ${header.length + length}`, frame.length === header.length + length)
  check(`${name}: frame header`, firstDifference(frame.subarray(0, header.length), new Uint8Array(header)) === -1)
  const reference = new Uint8Array(length)
  for (let i = 0; i < length; i++) reference[i] = original[i]! ^ key[i & 3]!
  const maskedAt = firstDifference(frame.subarray(header.length), reference)
  check(`${name}: masked payload equals a plain XOR with the key (first difference at ${maskedAt})`, maskedAt === -1)
  check(`${name}: masked payload differs from the input`, firstDifference(frame.subarray(header.length), original) !== -1)

  const sent = frame.slice()
  const decoded = decodeFrame(frame, { maxPayload: 200 * 1024, requireMask: true }, masker)
  check(`${name}: frame not modified by decodeFrame`, firstDifference(frame, sent) === -1)
  if (!(E.isRight(decoded) && decoded.right._tag === 'Parsed')) {
    check(`${name}: decodeFrame parses the frame`, false)
    return frame
  }
  const { value, rest } = decoded.right
  check(`${name}: decoded fin, opcode, no rest`, value.fin && value.opcode === 2 && rest.length === 0)
  const unmaskedAt = firstDifference(value.payload, original)
  check(`${name}: decoded payload equals the input (first difference at ${unmaskedAt})`, unmaskedAt === -1)
  check(`${name}: decoded payload is a new array`, value.payload.buffer !== input.buffer && value.payload.buffer !== frame.buffer)
  check(`${name}: input not modified by the round trip`, firstDifference(input, original) === -1)

  const assembled = assembleMessage(initialAssembly, value, { maxMessage: 200 * 1024 })
  const output = E.isRight(assembled) ? assembled.right.output : undefined
  check(`${name}: assembleMessage gives the binary message`, output?._tag === 'Binary' && firstDifference(output.data, original) === -1)
  return frame
}

export const run = (): SmokeReport => {
  const failures: string[] = []
  const check = (what: string, ok: boolean): void => {
    if (!ok) failures.push(what)
  }
  const text = new TextEncoder()
  const read = new TextDecoder()

  check('no Node globals in the page', typeof (globalThis as { process?: unknown }).process === 'undefined' && typeof (globalThis as { Buffer?: unknown }).Buffer === 'undefined')

  // RFC 6455 §1.3 and §5.7.
  check('acceptKey', acceptKey('dGhlIHNhbXBsZSBub25jZQ==') === 's3pPLMBiTxaQ9kYGzzhZRbK+xOo=')
  const masked = encodeFrameBytes({ opcode: 1, payload: text.encode('Hello') }, new Uint8Array([0x37, 0xfa, 0x21, 0x3d]))
  check('masked frame bytes', Array.from(masked).join(',') === [0x81, 0x85, 0x37, 0xfa, 0x21, 0x3d, 0x7f, 0x9f, 0x4d, 0x51, 0x58].join(','))
  const decoded = decodeFrame(masked, { maxPayload: 1024, requireMask: true })
  check('decodeFrame', E.isRight(decoded) && decoded.right._tag === 'Parsed' && read.decode(decoded.right.value.payload) === 'Hello')

  // A text message in two fragments, a code point split between them.
  const bytes = text.encode('héllo')
  const first = assembleMessage(initialAssembly, { fin: false, rsv1: false, rsv2: false, rsv3: false, opcode: 1, payload: bytes.subarray(0, 2) }, { maxMessage: 100 })
  const second = E.isRight(first)
    ? assembleMessage(first.right.state, { fin: true, rsv1: false, rsv2: false, rsv3: false, opcode: 0, payload: bytes.subarray(2) }, { maxMessage: 100 })
    : first
  check('assembleMessage', E.isRight(second) && second.right.output?._tag === 'Text' && second.right.output.text === 'héllo')

  const envelope = decodeEnvelope('{"event":"join","data":{"room":"a"},"id":1}')
  check('decodeEnvelope', E.isRight(envelope) && envelope.right.event === 'join' && envelope.right.id === 1)
  check('encodeEvent', encodeEvent({ event: 'x', data: [1] }) === '{"event":"x","data":[1]}')

  const wire = text.encode('GET /users/42?x=1 HTTP/1.1\r\nHost: a\r\n\r\nGET /b HTTP/1.1\r\nHost: a\r\n\r\n')
  const parsed = parseHttpRequest(wire)
  const ok = E.isRight(parsed) && parsed.right._tag === 'Parsed'
  check('parseHttpRequest', ok && parsed.right.value.path === '/users/42' && parsed.right.value.rawQuery === 'x=1')
  const next = ok ? parseHttpRequest(parsed.right.rest) : parsed
  check('parseHttpRequest pipelined', E.isRight(next) && next.right._tag === 'Parsed' && next.right.value.path === '/b')

  const table = compileRoutes([httpRoute('GET', '/users/{id}', (req) => req.params.id)])
  const match = E.isRight(table) ? matchRoute(table.right, 'GET', '/users/a%20b') : undefined
  check('matchRoute', match?._tag === 'RouteFound' && match.params.id === 'a b')
  check('matchRoute 405', E.isRight(table) && matchRoute(table.right, 'POST', '/users/1')._tag === 'MethodNotAllowed')

  const out = read.decode(serializeResponse(json({ ok: true }), { keepAlive: true }))
  check('serializeResponse', out.startsWith('HTTP/1.1 200 OK\r\n') && out.endsWith('\r\n\r\n{"ok":true}'))

  const request = ok ? parsed.right.value : undefined
  if (request !== undefined) {
    const withOrigin = { ...request, headers: [...request.headers, ['Origin', 'https://app.example'] as const] }
    const res = compileCors(DEFAULT_CORS_CONFIG).apply(withOrigin, json(1))
    check('applyCors', res.headers.some(([n, v]) => n === 'Access-Control-Allow-Origin' && v === '*'))
  }

  check('formatMessage', formatMessage('info', 'hi {who}', { who: 'there' }, '2026-01-01T00:00:00.000Z').startsWith('[2026-01-01T00:00:00.000Z] INFO: hi there'))

  // Large masked frames: 1 KiB (one SIMD chunk), 100 KiB (several 16 KiB chunks, the last
  // partial), and 1 KiB + 5 (a tail that is no multiple of 4 or 16), on each masking path.
  const key = new Uint8Array([0x9d, 0x3c, 0x71, 0xe4])
  const sizes = [1024, 100 * 1024, 1024 + 5]
  // A server's masker (SIMD where the page's engine has it), and one with SIMD switched off.
  const server = createMasker()
  const maskPath = server.simd() !== null ? 'simd' : 'js'
  const viaDefault = sizes.map((size) => maskedRoundTrip(check, maskPath, size, key, server))
  const off = createMasker({ simd: false })
  check('SIMD masking switched off', off.simd() === null)
  const viaJs = sizes.map((size) => maskedRoundTrip(check, 'js', size, key, off))
  sizes.forEach((size, i) => check(`${maskPath} and js give the same frame, ${size} B`, firstDifference(viaDefault[i]!, viaJs[i]!) === -1))
  check('SIMD masking restored', (server.simd() !== null) === (maskPath === 'simd'))
  return { failures, maskPath }
}

/**
 * A smoke run of the pure core for a browser page: bundled by the spec beside it and
 * executed in headless Chromium, where there is no `process`, no `Buffer` and no
 * `node:*` module. Returns the checks that failed (empty when all hold).
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

export const run = (): string[] => {
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
  return failures
}

import * as E from 'fp-ts/lib/Either.js'
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import type { HttpRequest } from '../../../lib/core/http/types.js'
import { DEFAULT_DEFLATE_CONFIG } from '../../../lib/core/ws/extensions/deflate-config.js'
import type { DeflateParams } from '../../../lib/core/ws/extensions/deflate-params.js'
import type { DeflateCodec, MessageCompressor } from '../../../lib/core/ws/extensions/message-codec.js'
import { portableFrames } from '../../../lib/engine/delivery/outgoing.js'
import { createWsCompression } from '../../../lib/engine/deflate/ws-compression.js'
import type { DeflateHost } from '../../../lib/engine/deflate/ws-deflate.js'
import { toHex } from '../../core/ws/hex.js'

const tick = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

// A codec that counts: every compressor "compresses" to the window bits then the payload.
const countingCodec = () => {
  const calls: string[] = []
  let closed = 0
  const compressorFor = (name: string, bits: number): MessageCompressor => ({
    compress: async (message) => {
      calls.push(`${name}:${bits}`)
      return Uint8Array.of(bits, ...message)
    },
    close: () => undefined,
  })
  const shared = new Map<number, MessageCompressor>()
  const sharedCompressor = (bits: number): MessageCompressor => {
    let c = shared.get(bits)
    if (c === undefined) shared.set(bits, (c = compressorFor('shared', bits)))
    return c
  }
  const codec: DeflateCodec = {
    createCompressor: (params) => (params.serverNoContextTakeover ? sharedCompressor(params.serverMaxWindowBits) : compressorFor('own', params.serverMaxWindowBits)),
    createDecompressor: () => ({ decompress: async (p) => E.right(p), close: () => undefined }),
    sharedCompressor,
    close: () => void closed++,
  }
  return { codec, calls, closes: () => closed }
}

const request = (extensions?: readonly string[]): HttpRequest =>
  ({
    method: 'GET',
    path: '/',
    headers: (extensions ?? []).map((value) => ['sec-websocket-extensions', value] as const),
  }) as unknown as HttpRequest

const setup = () => {
  const { codec, calls, closes } = countingCodec()
  const logs: Array<Readonly<Record<string, unknown>>> = []
  const compression = createWsCompression({
    config: { ...DEFAULT_DEFLATE_CONFIG, enabled: true, threshold: 3 },
    codec,
    frameLimits: { maxPayload: 1000, requireMask: true },
    debug: (message, context) => void logs.push({ message, ...context }),
  })
  return { compression, calls, closes, logs }
}

const host = (written: string[]): DeflateHost => ({ admit: (f) => void written.push(toHex(f)), hold: () => undefined, compressionFailed: () => undefined })
const params = (bits: number, noTakeover = true): DeflateParams => ({ serverNoContextTakeover: noTakeover, clientNoContextTakeover: false, serverMaxWindowBits: bits, clientMaxWindowBits: 15 })

test('createWsCompression :: negotiate: no header, none; an offer, its agreement; repeated header lines are one list', () => {
  const { compression } = setup()
  assert.equal(compression.negotiate(request(), 1), E.right(undefined))
  const agreed = compression.negotiate(request(['x-other', 'permessage-deflate; client_max_window_bits']), 1)
  assert.ok(E.isRight(agreed) && agreed.right?.header === 'permessage-deflate; server_no_context_takeover')
})

test('createWsCompression :: negotiate: a header seen before gives the same agreement; past 32 distinct headers, still right', () => {
  const { compression } = setup()
  const a = compression.negotiate(request(['permessage-deflate; client_max_window_bits']), 1)
  const b = compression.negotiate(request(['permessage-deflate; client_max_window_bits']), 2)
  assert.ok(E.isRight(a) && E.isRight(b) && a.right !== undefined && a.right === b.right)
  for (let bits = 0; bits < 40; bits++) {
    const header = `permessage-deflate; client_max_window_bits=${8 + (bits % 8)}; server_max_window_bits=${15 - (bits % 8)}, x-${bits}`
    const agreed = compression.negotiate(request([header]), bits)
    assert.ok(E.isRight(agreed) && agreed.right?.params.clientMaxWindowBits === 8 + (bits % 8), header)
  }
  const bad = compression.negotiate(request(['permessage-deflate;']), 3)
  assert.ok(E.isLeft(bad) && bad.left.status === 400)
})

test('createWsCompression :: negotiate: a header that does not parse is a 400 with the JSON reason, logged at debug', () => {
  const { compression, logs } = setup()
  const refused = compression.negotiate(request(['permessage-deflate;']), 7)
  assert.ok(E.isLeft(refused))
  if (E.isLeft(refused)) {
    assert.is(refused.left.status, 400)
    assert.equal(refused.left.body, { error: 'invalid Sec-WebSocket-Extensions header' })
  }
  assert.equal(logs, [{ message: 'websocket handshake refused', clientId: 7, status: 400, reason: 'invalid Sec-WebSocket-Extensions header', offset: 19, expected: 'a parameter name' }])
})

test('createWsCompression :: negotiate: declined offers are logged at debug, the next acceptable one wins', () => {
  const { compression, logs } = setup()
  const agreed = compression.negotiate(request(['permessage-deflate; server_max_window_bits=16, permessage-deflate; mux, permessage-deflate']), 3)
  assert.ok(E.isRight(agreed) && agreed.right !== undefined)
  assert.equal(logs, [
    { message: 'permessage-deflate offer declined', clientId: 3, offer: 'server_max_window_bits', reason: 'InvalidParameterValue' },
    { message: 'permessage-deflate offer declined', clientId: 3, offer: 'mux', reason: 'UnknownParameter' },
  ])
})

test('createWsCompression :: a broadcast is compressed once per window, whatever the number of receivers', async () => {
  const { compression, calls } = setup()
  const written: string[][] = [[], [], [], [], []]
  const sessions = [params(15), params(15), params(10), params(15, false), params(10)].map((p, i) => compression.attach(host(written[i]!), p))
  const frame = portableFrames.text('hello')
  for (const session of sessions) session.send(frame, true)
  await tick()
  assert.equal(calls.sort(), ['own:15', 'shared:10', 'shared:15'])
  assert.equal(written, [['c1 06 0f 68 65 6c 6c 6f'], ['c1 06 0f 68 65 6c 6c 6f'], ['c1 06 0a 68 65 6c 6c 6f'], ['c1 06 0f 68 65 6c 6c 6f'], ['c1 06 0a 68 65 6c 6c 6f']])
  // The next broadcast is compressed again; a direct send is never shared.
  const next = portableFrames.text('again')
  sessions[0]!.send(next, true)
  sessions[1]!.send(next, true)
  sessions[0]!.send(next, false)
  await tick()
  assert.is(calls.length, 5)
})

test('createWsCompression :: attach: RSV1 allowed on top of the server\'s frame limits; equal agreements share one record; close closes the codec', () => {
  const { compression, closes } = setup()
  const session = compression.attach(host([]), params(15))
  assert.equal(session.frameLimits, { maxPayload: 1000, requireMask: true, allowRsv1: true })
  assert.is(compression.attach(host([]), params(15)).params, session.params)
  assert.is.not(compression.attach(host([]), params(10)).params, session.params)
  compression.close()
  assert.is(closes(), 1)
})

test.run()

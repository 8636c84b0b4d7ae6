import { test } from 'uvu'
import * as assert from 'uvu/assert'
import * as ws from '../../../lib/core/ws/index.js'

test('ws core index :: exports the public API', () => {
  const names = [
    'decodeFrame', 'encodeFrame', 'encodeFrameBytes', 'textFrame', 'binaryFrame', 'pingFrame', 'pongFrame', 'closeFrame',
    'assembleMessage', 'initialAssembly', 'parseClosePayload', 'buildClosePayload', 'isValidCloseCode', 'CLOSE_CODE',
    'isWebSocketUpgrade', 'validateUpgrade', 'acceptKey', 'handshakeResponse', 'sha1', 'encodeBase64', 'maskBytes',
    'decodeEnvelope', 'encodeEvent', 'encodeErrorEvent', 'encodeAck', 'EventEnvelope', 'OPCODE', 'unmaskedFrame', 'originNotAllowed',
    'negotiateDeflate', 'parseExtensions', 'formatExtension', 'resolveDeflateConfig', 'acceptDeflateOffer', 'inflatedMessage',
    'stripDeflateTail', 'DEFLATE_TAIL', 'DEFAULT_DEFLATE_CONFIG', 'misplacedRsv1', 'invalidCompressedData', 'compressedBound',
  ]
  for (const name of names) assert.ok(name in ws, name)
  assert.is(ws.OPCODE.PONG, 10)
})

test.run()

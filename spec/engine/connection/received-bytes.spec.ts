/**
 * `receivedBytes`: what the engine hands a client's receiver for a chunk read from a socket.
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { Buffer } from 'node:buffer'
import type { Client, ClientType } from '../../../lib/engine/connection/client.js'
import { receivedBytes } from '../../../lib/engine/connection/received-bytes.js'

const client = (type: ClientType): Client<unknown> => ({ id: 1, socket: undefined, type, receiver: { receive: () => undefined, peerEnded: () => undefined }, data: undefined })

// A chunk as Node reads it: a Buffer over part of a larger memory.
const chunk = (): Buffer => Buffer.from('00' + '818537fa213d7f9f4d5158' + 'ff', 'hex').subarray(1, 12)

test('receivedBytes :: a WebSocket client gets the Buffer itself', () => {
  const bytes = chunk()
  assert.is(receivedBytes(client('ws'), bytes), bytes)
})

test('receivedBytes :: an HTTP client gets a plain Uint8Array over the same bytes, whose subarrays are plain too', () => {
  const bytes = chunk()
  const plain = receivedBytes(client('http'), bytes)
  assert.is(plain.constructor, Uint8Array)
  assert.is(plain.buffer, bytes.buffer)
  assert.is(plain.byteOffset, bytes.byteOffset)
  assert.is(Buffer.from(plain).toString('hex'), '818537fa213d7f9f4d5158')
  assert.is(plain.subarray(2).constructor, Uint8Array)
})

test.run()

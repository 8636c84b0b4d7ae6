/**
 * The keep-alive clock and the server's own stalls (issue 31), on the engine over an in-memory
 * platform with manual timers: a fresh connection's idle clock starts at the first sweep after
 * its accept, and a sweep that comes late after a stall judges nothing, so a connection whose
 * request arrived during a long synchronous task is read before any time-out; a silent
 * connection is still closed after `keepAliveTimeoutMs`. No timing. Portable (Node, Bun, Deno).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { httpRoute } from '../../../lib/core/route/http-route.js'
import { json } from '../../../lib/core/http/response.js'
import type { Client } from '../../../lib/engine/connection/client.js'
import { createEngine, type Engine } from '../../../lib/engine/create-engine.js'
import { manualTimers, type ManualTimers } from '../../support/manual-timers.js'
import { memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

const utf8 = new TextEncoder()
const text = new TextDecoder()
const GET = utf8.encode('GET /hello HTTP/1.1\r\nHost: x\r\n\r\n')

const serverOn = (timers: ManualTimers): Engine<MemorySocket> =>
  createEngine({ routes: [httpRoute('GET', '/hello', () => json({ hello: 'world' }))] }, { ...memoryPlatform<MemorySocket>(), timers })

const accept = (engine: Engine<MemorySocket>): { socket: MemorySocket; client: Client<MemorySocket> } => {
  const socket: MemorySocket = { out: [], ended: false, closed: false }
  return { socket, client: engine.accept(socket) as Client<MemorySocket> }
}

const answered = async (socket: MemorySocket): Promise<string> => {
  for (let i = 0; i < 5; i++) await Promise.resolve()
  return socket.out.map((bytes) => text.decode(bytes)).join('')
}

test('idle clock :: a connection accepted just before a stall longer than the keep-alive time-out is read, not cut', async () => {
  const timers = manualTimers()
  const engine = serverOn(timers)
  const { socket, client } = accept(engine)
  try {
    timers.advance(10) // accepted; the server then runs one long task…
    timers.stall(12_000) // …past the 5 s keep-alive, while the request arrives
    timers.advance(1) // the late sweep runs first, then the reads of its turn
    assert.is(socket.ended, false, 'not ended by the late sweep')
    client.receiver.receive(GET.slice())
    assert.match(await answered(socket), /^HTTP\/1\.1 200 OK/)
  } finally {
    engine.closed(client)
    await engine.handle.close()
  }
})

test('idle clock :: a kept-alive connection whose next request came during a stall is read too', async () => {
  const timers = manualTimers()
  const engine = serverOn(timers)
  const { socket, client } = accept(engine)
  try {
    client.receiver.receive(GET.slice())
    await answered(socket)
    socket.out.length = 0
    timers.advance(4_000)
    timers.stall(8_000)
    timers.advance(1)
    assert.is(socket.ended, false)
    client.receiver.receive(GET.slice())
    assert.match(await answered(socket), /^HTTP\/1\.1 200 OK/)
  } finally {
    engine.closed(client)
    await engine.handle.close()
  }
})

test('idle clock :: a silent connection is still closed after keepAliveTimeoutMs (within one sweep more)', async () => {
  const timers = manualTimers()
  const engine = serverOn(timers)
  const { socket, client } = accept(engine)
  const other = accept(engine)
  try {
    timers.advance(5_000)
    assert.is(socket.ended, false, 'its clock started at the first sweep after the accept')
    timers.advance(2_000)
    assert.is(socket.ended, true)
    assert.is(other.socket.ended, true)
  } finally {
    engine.closed(client)
    engine.closed(other.client)
    await engine.handle.close()
  }
})

test.run()

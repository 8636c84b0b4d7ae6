/**
 * The connections a server could not take (lib/engine/connection/accept-wall.ts): refusals past
 * `maxConnections` and accepts failed for want of file descriptors are counted and logged once
 * per `WALL_LOG_MS` with their counts, never once per connection; in the engine on manual
 * timers. No timing. Portable (Node, Bun, Deno).
 */
import { test } from 'uvu'
import * as assert from 'uvu/assert'
import { makeLogger } from '../../../lib/core/log/make-logger.js'
import type { LogEntry } from '../../../lib/core/log/logger.js'
import { AcceptWall, isDescriptorError, WALL_LOG_MS } from '../../../lib/engine/connection/accept-wall.js'
import { createEngine } from '../../../lib/engine/create-engine.js'
import { manualTimers } from '../../support/manual-timers.js'
import { memoryPlatform, type MemorySocket } from '../../support/memory-platform.js'

test('isDescriptorError :: EMFILE and ENFILE by code (Node) or by message (Deno, Bun)', () => {
  assert.ok(isDescriptorError(Object.assign(new Error('accept EMFILE'), { code: 'EMFILE' })))
  assert.ok(isDescriptorError({ code: 'ENFILE' }))
  assert.ok(isDescriptorError(new Error('Too many open files (os error 24)')))
  assert.ok(isDescriptorError(new Error('Too many open files in system (os error 23)')))
  assert.not.ok(isDescriptorError(new Error('Bad resource ID')))
  assert.not.ok(isDescriptorError(undefined))
})

test('AcceptWall :: the first hit is logged at once, the rest once per interval with their counts', () => {
  const timers = manualTimers()
  const entries: LogEntry[] = []
  const wall = new AcceptWall(timers, makeLogger((entry) => void entries.push(entry)), () => 7, 5, 100)
  wall.hit('descriptors')
  assert.is(entries.length, 1)
  assert.equal(entries[0]?.context, { full: 0, draining: 0, descriptors: 1, open: 7, maxConnections: 5, fdLimit: 100 })
  for (let i = 0; i < 1000; i++) wall.hit(i % 2 === 0 ? 'full' : 'descriptors')
  assert.is(entries.length, 1, 'nothing more within the interval')
  timers.advance(WALL_LOG_MS)
  assert.is(entries.length, 2)
  assert.equal(entries[1]?.context, { full: 500, draining: 0, descriptors: 500, open: 7, maxConnections: 5, fdLimit: 100 })
  timers.advance(3 * WALL_LOG_MS)
  assert.is(entries.length, 2, 'a quiet interval logs nothing')
  wall.hit('draining')
  assert.is(entries.length, 3, 'after a quiet interval, at once again')
  wall.close()
})

test('createEngine :: connections past maxConnections get 503 and one warning per interval; acceptFailed counts EMFILE', async () => {
  const timers = manualTimers()
  const entries: LogEntry[] = []
  const engine = createEngine({ logger: makeLogger((entry) => void entries.push(entry)), limits: { maxConnections: 2 } }, { ...memoryPlatform<MemorySocket>(), timers })
  const sockets: MemorySocket[] = []
  const clients = []
  for (let i = 0; i < 10; i++) {
    const socket: MemorySocket = { out: [], ended: false, closed: false }
    sockets.push(socket)
    clients.push(engine.accept(socket))
  }
  engine.acceptFailed(Object.assign(new Error('accept EMFILE'), { code: 'EMFILE', syscall: 'accept' }))
  const walls = (): LogEntry[] => entries.filter((e) => e.message.startsWith('connections not taken'))
  try {
    assert.is(clients.filter((c) => c === undefined).length, 8)
    assert.ok(sockets.slice(2).every((s) => s.ended && /^HTTP\/1\.1 503/.test(new TextDecoder().decode(s.out[0]))))
    assert.is(walls().length, 1, 'one line, not eight')
    timers.advance(WALL_LOG_MS)
    assert.is(walls().length, 2)
    assert.equal(walls()[1]?.context, { full: 7, draining: 0, descriptors: 1, open: 2, maxConnections: 2, fdLimit: 'unknown' })
  } finally {
    for (const client of clients) if (client !== undefined) engine.closed(client)
    await engine.handle.close()
  }
})

test.run()

/**
 * `writeManyExchange`: the addon's `writeMany` (one frame to many connections, a broadcast's
 * slice) against real loopback sockets, on the bare binding (no engine): every receiver gets
 * the bytes; a receiver whose kernel buffer is full gets them queued behind an earlier queued
 * write, in order, and all of it once it reads; a destroyed, an unknown, an ended and a reset
 * receiver are reported with -errno while the others are written; bad arguments throw. Run in
 * this process by native-write-many.spec.ts and under AddressSanitizer by asan-child.ts. Throws
 * (an assertion) on the first thing that differs; closes every socket and the listener in any case.
 */
import { connect, type Socket } from 'node:net'
import * as assert from 'uvu/assert'
import { type NativeBinding, NativeRecord, RECORD_FIELDS } from '../../lib/native/native-binding.js'

const EPIPE = 32
const EBADF = 9

interface Peer {
  readonly socket: Socket
  readonly slot: number
  received: Buffer[]
  bytes: number
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve))

// Waits (I/O turns, no clock) until `ready` holds; throws after `turns` turns.
const until = async (ready: () => boolean, what: string, turns = 20_000): Promise<void> => {
  for (let i = 0; i < turns; i++) {
    if (ready()) return
    await turn()
  }
  throw new Error(`never happened: ${what}`)
}

/** Runs the exchange on `binding`; resolves when every check passed. */
export const writeManyExchange = async (binding: NativeBinding): Promise<void> => {
  const writeMany = binding.writeMany?.bind(binding)
  assert.ok(writeMany !== undefined, 'the binary has writeMany')
  const opened: number[] = []
  const closed = new Set<number>()
  const listener = binding.listen('127.0.0.1', 0, 64, {
    batch(records, _slab, count) {
      for (let at = 0; at < count * RECORD_FIELDS; at += RECORD_FIELDS) {
        if (records[at] === NativeRecord.OPEN) opened.push(records[at + 1] as number)
        if (records[at] === NativeRecord.CLOSE) closed.add(records[at + 1] as number)
      }
    },
  })
  const peers: Peer[] = []
  try {
    for (let i = 0; i < 5; i++) {
      const socket = connect(listener.port, '127.0.0.1')
      socket.on('error', () => undefined)
      await until(() => opened.length === i + 1, `connection ${i} accepted`)
      const peer: Peer = { socket, slot: opened[i] as number, received: [], bytes: 0 }
      socket.on('data', (chunk: Buffer) => {
        peer.received.push(chunk)
        peer.bytes += chunk.length
      })
      peers.push(peer)
    }
    const slots = Uint32Array.from(peers, (p) => p.slot)
    const results = new Int32Array(2 * 16)
    const text = (peer: Peer): string => Buffer.concat(peer.received).toString('latin1')

    // 1. Everyone takes it: nothing reported.
    assert.is(writeMany(Buffer.from('hello'), slots, slots.length, results), 0)
    await until(() => peers.every((p) => p.bytes === 5), 'every receiver got hello')
    for (const peer of peers) assert.is(text(peer), 'hello')

    // 2. A full kernel buffer: receiver 0 stops reading; the shared bytes queue for it alone.
    const slow = peers[0] as Peer
    slow.socket.pause()
    const big = Buffer.alloc(256 * 1024, 0x61)
    let queued = 0
    let sentBig = 0
    for (let i = 0; i < 64 && queued === 0; i++) {
      const reported = writeMany(big, slots.subarray(0, 1), 1, results)
      sentBig += 1
      if (reported === 1) {
        assert.is(results[0], 0)
        queued = results[1] as number
      }
    }
    assert.ok(queued > 0, 'the stopped reader has bytes queued natively')
    // An earlier write queued behind the same backlog, then the shared bytes: they keep that order.
    const afterWrite = binding.write(slow.slot, Buffer.from('B'))
    assert.is(afterWrite, queued + 1)
    assert.is(writeMany(Buffer.from('C'), slots, 2, results), 1, 'only the slow receiver is reported')
    assert.equal([results[0], results[1]], [0, queued + 2])
    slow.socket.resume()
    const expected = 5 + sentBig * big.length + 2
    await until(() => slow.bytes === expected, `the slow receiver read all ${expected} bytes`)
    const all = text(slow)
    assert.is(all.slice(0, 5), 'hello')
    assert.is(all.slice(-2), 'BC')
    assert.ok(/^a+$/.test(all.slice(5, -2)), 'the big frames whole, in between')
    await until(() => (peers[1] as Peer).bytes === 6, 'receiver 1 got C')

    // 3. Gone, unknown and ended receivers are reported; the others are written.
    binding.destroy((peers[2] as Peer).slot)
    assert.is(binding.end((peers[3] as Peer).slot), 0)
    const mixed = Uint32Array.of((peers[2] as Peer).slot, 0xffff_fff0, (peers[3] as Peer).slot, (peers[4] as Peer).slot)
    assert.is(writeMany(Buffer.from('D'), mixed, mixed.length, results), 3)
    assert.equal([...results.subarray(0, 6)], [0, -EBADF, 1, -EBADF, 2, -EPIPE])
    await until(() => (peers[4] as Peer).bytes === 6, 'receiver 4 got D')
    assert.is(text(peers[4] as Peer), 'helloD')

    // 4. A receiver reset by its peer: a send fails (reported with -errno) within a few turns, no crash.
    const reset = peers[1] as Peer
    reset.socket.resetAndDestroy()
    let outcome = 0
    for (let i = 0; i < 2_000 && outcome >= 0 && !closed.has(reset.slot); i++) {
      await turn()
      if (writeMany(Buffer.from('E'), slots.subarray(1, 2), 1, results) === 1) outcome = results[1] as number
    }
    assert.ok(outcome < 0 || closed.has(reset.slot), 'the reset receiver failed or was closed')
    binding.destroy(reset.slot)

    // 5. Bad arguments throw before anything is written.
    assert.throws(() => writeMany(Buffer.from('x'), slots, slots.length + 1, results), /writeMany/)
    assert.throws(() => writeMany(Buffer.from('x'), slots, 5, new Int32Array(9)), /writeMany/)
    assert.throws(() => writeMany(Buffer.from('x'), new Int32Array(1) as unknown as Uint32Array, 1, results), /writeMany/)
    assert.throws(() => (writeMany as (...args: unknown[]) => number)(Buffer.from('x'), slots), /writeMany/)
    assert.is(writeMany(new Uint8Array(0), slots.subarray(4), 1, results), 0, 'nothing to write: nothing reported')
  } finally {
    for (const peer of peers) {
      peer.socket.destroy()
      binding.destroy(peer.slot)
    }
    binding.close(listener.server)
  }
}
